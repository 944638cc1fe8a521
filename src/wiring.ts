import { randomBytes } from "node:crypto";
import { attemptCounter } from "./adapters/attempt-counters.js";
import { mailDelivery, type MailDelivery } from "./adapters/mail/index.js";
import { createMaps } from "./adapters/maps/index.js";
import { localUploads, type Uploads } from "./adapters/uploads.js";
import type { Config } from "./config.js";
import { openDatabase } from "./db/client.js";
import { applyMigrations } from "./db/migrate.js";
import { plannedReads } from "./db/planned-reads.js";
import { afterCommit, unitAware } from "./db/unit.js";
import { CallerCache } from "./domain/callers.js";
import { systemClock, type Clock, type Deps } from "./domain/deps.js";
import type { EventMap } from "./domain/events.js";
import { databaseOutage, type DatabaseOutage } from "./domain/outage.js";
import { embeddedPayments } from "./domain/payment-methods.js";
import { DriverPresence } from "./domain/presence/presence.js";
import { ShownOffers } from "./domain/presence/shown-offers.js";
import { type AppEvents, inProcessEvents } from "./events/bus.js";
import { redisEvents } from "./events/redis.js";
import { createLogger, type AppLogger } from "./logger.js";

export interface WiringOptions {
  clock?: Clock;
  log?: AppLogger;
  onQuery?: (sql: string) => void;
}

/** A process's parts, wired from its configuration: what the domain needs (deps) and what runs it. */
export interface Wired {
  config: Config;
  log: AppLogger;
  database: Awaited<ReturnType<typeof openDatabase>>;
  events: AppEvents;
  /** Whatever fails because the database cannot serve now is counted here, not logged one by one. */
  outage: DatabaseOutage;
  mail: MailDelivery;
  /** The document photos' store, which the domain sees through deps.uploads and HTTP serves. */
  uploads: Uploads;
  deps: Deps;
}

/**
 * Migrates the database, then opens it, the event bus (in-process, or Redis), the upload store, the
 * attempt counters, the mail relay and the map providers, and hands the domain what it needs of them.
 */
export async function wire(config: Config, options: WiringOptions = {}): Promise<Wired> {
  const log = options.log ?? createLogger(config);
  const applied = await applyMigrations(config.DATABASE_URL);
  if (applied.length > 0) log.info({ applied }, "migrations applied");
  const database = await openDatabase(config.DATABASE_URL, {
    poolSize: config.DATABASE_POOL_SIZE,
    poolTimeoutMs: config.DATABASE_POOL_TIMEOUT_MS,
    onQuery: options.onQuery,
  });
  // Through Redis pub/sub when there is one, so that every process hears every event.
  const events = config.REDIS_URL ? await redisEvents(config.REDIS_URL, config.REDIS_CHANNEL_PREFIX, log) : inProcessEvents();
  const outage = databaseOutage(log, () => database.ping());
  const clock = options.clock ?? systemClock;

  if (!config.URL_SIGNING_SECRET && (config.NODE_ENV === "production" || config.REDIS_URL)) {
    log.warn({}, "URL_SIGNING_SECRET is not set: document links signed by this process are refused by every other one");
  }
  const uploads = localUploads({
    root: config.UPLOAD_DIR,
    maxBytes: config.UPLOAD_MAX_BYTES,
    secret: config.URL_SIGNING_SECRET ?? randomBytes(32).toString("hex"),
    linkTtlMs: config.UPLOAD_URL_TTL_S * 1000,
    clock,
  });
  const counter = (name: string, limit: number, windowS: number) =>
    attemptCounter({ name, limit, windowS, redis: events.redis, prefix: config.REDIS_CHANNEL_PREFIX });
  const mail = mailDelivery(config, { db: database.prisma, clock, log });
  // Inside a keyed request's unit of work, its transaction (src/db/unit.ts).
  const db = unitAware(database.prisma);
  const deps: Deps = {
    db,
    reads: plannedReads(db, database.provider, database.reader),
    provider: database.provider,
    clock,
    log,
    events: {
      // Heard once the work that caused them is committed.
      publish: (...args) => afterCommit(() => events.pubsub.publish(...args)),
      // Yoga's conditional types do not resolve for a generic topic: a broadcast topic yields its one payload, another the payload after its id.
      subscribe: (...args: [keyof EventMap, unknown?]) => events.pubsub.subscribe(...(args as [never])) as never,
    },
    maps: createMaps(config, log),
    matching: {
      presence: new DriverPresence(),
      positionMaxAgeMs: config.DRIVER_POSITION_MAX_AGE_S * 1000,
      waveSize: config.DISPATCH_WAVE_SIZE,
      waveMs: config.DISPATCH_WAVE_S * 1000,
      shown: new ShownOffers(),
    },
    callers: new CallerCache(),
    bcryptCost: config.BCRYPT_COST,
    tokenTtlMs: config.TOKEN_TTL_S * 1000,
    limits: {
      loginPerEmail: counter("login-correo:", config.LOGIN_MAX_FAILURES, config.LOGIN_FAILURE_WINDOW_S),
      loginPerAddress: counter("login-ip:", config.LOGIN_MAX_PER_ADDRESS, config.LOGIN_ADDRESS_WINDOW_S),
      emailCodesPerRecipient: counter("codigo-correo:", config.EMAIL_CODES_PER_RECIPIENT, config.EMAIL_CODE_WINDOW_S),
      emailCodesPerAddress: counter("codigo-ip:", config.EMAIL_CODES_PER_ADDRESS, config.EMAIL_CODE_WINDOW_S),
      shareRequestsPerAddress: counter("seguimiento-ip:", config.SHARE_REQUESTS_PER_ADDRESS, config.SHARE_REQUEST_WINDOW_S),
      driverInvitations: { perCompany: config.DRIVER_INVITATIONS_PER_COMPANY, windowMs: config.DRIVER_INVITATION_WINDOW_S * 1000 },
    },
    booking: {
      quoteTtlMs: config.QUOTE_TTL_S * 1000,
      minAheadMs: config.BOOKING_MIN_AHEAD_MIN * 60_000,
      maxAheadMs: config.BOOKING_MAX_AHEAD_DAYS * 24 * 3600_000,
      dispatchLeadMs: config.BOOKING_DISPATCH_LEAD_MIN * 60_000,
      graceMs: config.BOOKING_GRACE_MIN * 60_000,
      changeAnswerMs: config.CHANGE_ANSWER_S * 1000,
    },
    payments: config.PAYMENT_PROVIDER === "embedded" ? embeddedPayments : null,
    money: { payoutMinimum: config.PAYOUT_MIN_COP, maxDebt: config.DRIVER_MAX_DEBT_COP },
    safety: {
      publicUrl: (config.PUBLIC_URL ?? `http://localhost:${config.PORT}`).replace(/\/+$/, ""),
      sosEmail: config.SOS_EMAIL ?? null,
      sosEscalationEmail: config.SOS_ESCALATION_EMAIL ?? null,
      sosEscalateMs: config.SOS_ESCALATE_S * 1000,
    },
    deviceLockMs: config.DEVICE_LOCK_S * 1000,
    uploads,
    onMailQueued: (queued) => afterCommit(() => mail.queued(queued)),
  };
  return { config, log, database, events, outage, mail, uploads, deps };
}
