import type { Db } from "../db/client.js";
import type { Provider } from "../db/url.js";
import type { Events } from "./events.js";
import type { Maps } from "./maps/providers.js";
import type { DriverGeoIndex } from "./matching/geo-index.js";

export interface Clock {
  now(): Date;
}
export const systemClock: Clock = { now: () => new Date() };

/** The subset of a pino logger the domain uses. */
export interface Logger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
  debug(obj: object, msg?: string): void;
}

export interface OutgoingMail {
  destinatario: string;
  asunto: string;
  cuerpo: string;
}

/** Everything domain code needs from the outside world, passed in so tests can fix the clock. */
export interface Deps {
  db: Db;
  provider: Provider;
  clock: Clock;
  log: Logger;
  events: Events;
  maps: Maps;
  matching: {
    /** Online drivers' latest positions, kept current by `posicion_conductor` events. */
    index: DriverGeoIndex;
    /** A position older than this no longer says where the driver is. */
    positionMaxAgeMs: number;
  };
  bcryptCost: number;
  /** Where uploaded document photos go; `save` answers the URL they are served at. */
  uploads: { maxBytes: number; save(key: string, bytes: Uint8Array): Promise<string> };
  /** Called after an outbox mail commits; in development it prints the mail. */
  onMailQueued(mail: OutgoingMail): void;
}
