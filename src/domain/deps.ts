import type { Db } from "../db/client.js";
import type { Reads } from "../db/planned-reads.js";
import type { Provider } from "../db/url.js";
import type { CallerCache } from "./callers.js";
import type { Events } from "./events.js";
import type { Maps } from "./map-providers.js";
import type { DriverPresence } from "./presence/presence.js";
import type { ShownOffers } from "./presence/shown-offers.js";
import type { PaymentProvider } from "./payment-methods.js";

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
  /** When the mail stops being worth sending (the code it carries expires): unsent by then, it is marked vencido. */
  vence_en?: Date;
}

/** Counts attempts per key within a window; shared by every process when Redis is configured. */
export interface AttemptCounter {
  /** Counts one attempt: 0 when it is within the limit, otherwise the milliseconds until the window reopens. */
  hit(key: string): Promise<number>;
  /** Forgets the key's attempts (a login that succeeded). */
  reset(key: string): Promise<void>;
  /** Takes back one attempt counted by `hit` that turned out not to be one (the service could not judge it). */
  refund(key: string): Promise<void>;
}

/** Everything domain code needs from the outside world, passed in so tests can fix the clock. */
export interface Deps {
  db: Db;
  /** The reads of `db`, the simple ones run as one statement on the driver: for the paths the apps poll. */
  reads: Reads;
  provider: Provider;
  clock: Clock;
  log: Logger;
  events: Events;
  maps: Maps;
  matching: {
    /** The drivers online or on a trip, kept current on every process by presence events. */
    presence: DriverPresence;
    /** A position older than this no longer says where the driver is. */
    positionMaxAgeMs: number;
    /** A new request goes to this many drivers at a time, nearest first… */
    waveSize: number;
    /** …and to the next ones when nobody has taken it after this long. */
    waveMs: number;
    /** The requests known to have been shown to each driver already. */
    shown: ShownOffers;
  };
  /** Who recent callers are, so that most calls need not read their account. */
  callers: CallerCache;
  bcryptCost: number;
  /** How long a session token lasts. */
  tokenTtlMs: number;
  limits: {
    loginPerEmail: AttemptCounter;
    loginPerAddress: AttemptCounter;
    /** Codes the app asks to e-mail, per recipient and per client address. */
    emailCodesPerRecipient: AttemptCounter;
    emailCodesPerAddress: AttemptCounter;
    /** Requests for trip share links per client address: links can be neither listed nor guessed. */
    shareRequestsPerAddress: AttemptCounter;
    /**
     * Invitations one company may send within a window, counted from the invitations themselves
     * (in the database, so every process sees the same count, and on `clock`).
     */
    driverInvitations: { perCompany: number; windowMs: number };
  };
  booking: {
    /** How long a quote's price holds. */
    quoteTtlMs: number;
    /** How soon and how far ahead a pickup may be booked. */
    minAheadMs: number;
    maxAheadMs: number;
    /** How long before its pickup a booked trip is dispatched, and how long after it one nobody took ends. */
    dispatchLeadMs: number;
    graceMs: number;
    /** How long a change asked during a ride waits for its driver's answer. */
    changeAnswerMs: number;
  };
  /** Collects fares the platform is paid (wallet, card); null when only cash is taken. */
  payments: PaymentProvider | null;
  money: {
    /** The smallest payout a driver or a company may ask for, in pesos. */
    payoutMinimum: number;
    /** A driver who owes more than this cannot go online. */
    maxDebt: number;
  };
  safety: {
    /** Where people reach the service, without a trailing slash: links in mails start with it. */
    publicUrl: string;
    /** The operations team's address, mailed every SOS; null when not configured. */
    sosEmail: string | null;
    /** Mailed an SOS nobody acknowledged in time; null when not configured. */
    sosEscalationEmail: string | null;
    /** How long an SOS may wait for an operator before it is escalated. */
    sosEscalateMs: number;
  };
  /** How long a device stays locked after too many wrong codes. */
  deviceLockMs: number;
  uploads: {
    maxBytes: number;
    /** Stores a document photo and answers the link to keep for it (`/uploads/<key>`). */
    save(key: string, bytes: Uint8Array): Promise<string>;
    /** The upload a link points to (signed or not, absolute or not): its key and the plain link to keep; null for other values. */
    find(value: string): { key: string; link: string } | null;
    /** What a response shows for a stored link: a signed link that expires; other values unchanged. */
    link(value: string): string;
    /** Removes every upload under a folder (`conductores/7/`), if any. */
    remove(folder: string): Promise<void>;
  };
  /** Called after an outbox mail commits; in development it prints the mail. */
  onMailQueued(mail: OutgoingMail): void;
}
