import { AsyncLocalStorage } from "node:async_hooks";
import { pino, type DestinationStream } from "pino";
import { PinoPretty } from "pino-pretty";
import type { Config } from "./config.js";

/** The request being served, for every log line written while serving it. */
export const requestScope = new AsyncLocalStorage<{ request_id: string }>();

/** One coloured line per event, led by the request id, for a developer watching a terminal. */
export const prettyLines = (destination: NodeJS.WritableStream = process.stdout) =>
  PinoPretty({
    destination,
    sync: true,
    colorize: true,
    translateTime: "SYS:HH:MM:ss.l",
    ignore: "pid,hostname,request_id",
    messageFormat: "{if request_id}[{request_id}] {end}{msg}",
  });

/** JSON lines, the form log collectors read, unless a developer is watching a terminal. */
export const createLogger = (
  config: Pick<Config, "LOG_LEVEL"> & Partial<Pick<Config, "NODE_ENV">>,
  destination: DestinationStream | undefined = config.NODE_ENV === "development" && process.stdout.isTTY ? prettyLines() : undefined,
) => pino({ level: config.LOG_LEVEL, mixin: () => requestScope.getStore() ?? {} }, destination);
export type AppLogger = ReturnType<typeof createLogger>;
