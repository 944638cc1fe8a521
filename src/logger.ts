import { pino } from "pino";
import type { Config } from "./config.js";

export const createLogger = (config: Pick<Config, "LOG_LEVEL">) => pino({ level: config.LOG_LEVEL });
export type AppLogger = ReturnType<typeof createLogger>;
