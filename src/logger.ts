import { AsyncLocalStorage } from "node:async_hooks";
import { pino, type DestinationStream } from "pino";
import type { Config } from "./config.js";

/** The request being served, for every log line written while serving it. */
export const requestScope = new AsyncLocalStorage<{ request_id: string }>();

export const createLogger = (config: Pick<Config, "LOG_LEVEL">, destination?: DestinationStream) =>
  pino({ level: config.LOG_LEVEL, mixin: () => requestScope.getStore() ?? {} }, destination);
export type AppLogger = ReturnType<typeof createLogger>;
