import { isIP } from "node:net";
import { z } from "zod";
import { lengthProblem } from "./domain/accounts/password.js";

/** A DNS name: labels of letters, digits and hyphens. */
const HOST_NAME = /^(?=.{1,253}$)[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/i;

/*
 * Each setting says what it must be; a bad value stops the start with one line naming the
 * variable, that, and what was given (see ConfigError).
 */
const FLAGS = ["true", "false", "1", "0"] as const;
/** A yes/no setting; unset means "the default for this environment", decided in loadConfig. */
const flag = () => z.enum(FLAGS, { error: "true, false, 1 or 0" }).optional();
/** A whole number within bounds. */
const integer = (min: number, max: number) => {
  const error = `a whole number from ${min} to ${max}`;
  return z.coerce.number({ error }).int({ error }).min(min, { error }).max(max, { error });
};
const seconds = (min: number, max: number, fallback: number) => integer(min, max).default(fallback);
const limit = (fallback: number) => integer(1, 1_000_000).default(fallback);
/** A number within bounds, decimals allowed. */
const decimal = (min: number, max: number) => {
  const error = `a number from ${min} to ${max}`;
  return z.coerce.number({ error }).min(min, { error }).max(max, { error });
};
const oneOf = <const T extends readonly [string, ...string[]]>(values: T) => z.enum(values, { error: `one of ${values.join(", ")}` });
const httpUrl = () => z.url({ protocol: /^https?$/, error: "an http:// or https:// URL" });
const text = (error: string) => z.string().trim().min(1, { error });
const emailAddress = (value: string) => z.email().safeParse(value.trim()).success;
/** "no-responder@example.co" or "Viax <no-responder@example.co>". */
const mailbox = (value: string) => {
  const named = /^[^<>]*<([^<>]+)>$/.exec(value.trim());
  return emailAddress(named ? named[1]! : value);
};

/** Every environment variable the service reads, parsed and validated in one place. */
const schema = z.object({
  PORT: integer(0, 65535).default(4000),
  HOST: z
    .string()
    .refine((value) => isIP(value) !== 0 || HOST_NAME.test(value), { error: "an IP address or a host name" })
    .default("0.0.0.0"),
  DATABASE_URL: z
    .string()
    .regex(/^(file:.+|postgres(ql)?:\/\/.+)$/, "file:<path> (SQLite) or postgresql://… (PostgreSQL)")
    .default("file:./data/app.db"),
  DATABASE_POOL_SIZE: integer(1, 200).default(10),
  /** How long a PostgreSQL query waits for a free connection before its request is answered 503. */
  DATABASE_POOL_TIMEOUT_MS: integer(10, 60_000).default(5000),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\/./, "a URL starting with redis:// or rediss://")
    .optional(),
  REDIS_CHANNEL_PREFIX: text("a prefix of at least one character").default("ride-hailing:"),
  OSRM_URL: httpUrl().optional(),
  NOMINATIM_URL: httpUrl().optional(),
  MAPS_TIMEOUT_MS: integer(100, 60_000).default(2500),
  DRIVER_POSITION_MAX_AGE_S: integer(5, 3600).default(60),
  /** How often the positions drivers report are stored: a crash loses at most this much of them. */
  POSITION_FLUSH_MS: integer(50, 60_000).default(1000),
  /** A new trip request goes to this many of the nearest drivers at a time… */
  DISPATCH_WAVE_SIZE: integer(1, 1000).default(10),
  /** …and to the next nearest ones after this many seconds while nobody has taken it (decimals allowed). */
  DISPATCH_WAVE_S: decimal(0.05, 600).default(15),
  /** How often each process looks for requests whose next wave is due: how late a wave may go out. */
  DISPATCH_POLL_MS: integer(10, 60_000).default(250),
  /** How long a quoted price holds: a trip asked for with the quote within this long is charged at most that price. */
  QUOTE_TTL_S: seconds(1, 24 * 3600, 300),
  /** A trip is booked ahead at least this many minutes before its pickup… */
  BOOKING_MIN_AHEAD_MIN: integer(0, 24 * 60).default(30),
  /** …and at most this many days. */
  BOOKING_MAX_AHEAD_DAYS: integer(1, 365).default(7),
  /** A booked trip is dispatched (offered to drivers) this many minutes before its pickup… */
  BOOKING_DISPATCH_LEAD_MIN: integer(0, 24 * 60).default(15),
  /** …and ends, never charged, when nobody has taken it this many minutes after the pickup time. */
  BOOKING_GRACE_MIN: integer(0, 24 * 60).default(10),
  /** How often each process looks for bookings to dispatch, end or remind of, and trip changes unanswered: how late those may go. */
  BOOKING_POLL_MS: integer(10, 600_000).default(1000),
  /** A change of destination or stops asked during a ride waits this long for its driver's answer. */
  CHANGE_ANSWER_S: seconds(5, 600, 30),
  /** Who collects fares paid by digital wallet or card: the embedded stand-in, or nobody (cash only). */
  PAYMENT_PROVIDER: oneOf(["embedded", "none"]).default("embedded"),
  /** The smallest payout a driver or a company may ask for, in pesos. */
  PAYOUT_MIN_COP: integer(1, 100_000_000).default(20_000),
  /** A driver who owes the platform more than this (commissions of cash trips) cannot go online. */
  DRIVER_MAX_DEBT_COP: integer(0, 100_000_000).default(50_000),
  /** Where people reach this service (https://viajes.example.co), for the links mails carry; http://localhost:PORT by default. */
  PUBLIC_URL: z.url({ protocol: /^https?$/, error: "an http(s) URL" }).optional(),
  /** Where every SOS is mailed at once: the operations team. */
  SOS_EMAIL: z.string().refine(emailAddress, { error: "an e-mail address" }).optional(),
  /** An SOS nobody acknowledged within SOS_ESCALATE_S is mailed again here. */
  SOS_ESCALATION_EMAIL: z.string().refine(emailAddress, { error: "an e-mail address" }).optional(),
  SOS_ESCALATE_S: seconds(1, 3600, 60),
  /** How often each process looks for SOSs due to be escalated: one is escalated at most this long after its time. */
  SOS_POLL_MS: integer(100, 600_000).default(1000),
  UPLOAD_DIR: text("a folder").default("./data/uploads"),
  UPLOAD_MAX_BYTES: integer(1024, 100 * 1024 * 1024).default(5 * 1024 * 1024),
  /** How long a signed link to a document photo stays valid. */
  UPLOAD_URL_TTL_S: seconds(10, 7 * 24 * 3600, 900),
  /** Key that signs links to document photos; every process of one deployment needs the same one. */
  URL_SIGNING_SECRET: z.string().min(32, "at least 32 characters").optional(),
  ADMIN_EMAIL: z.string().refine(emailAddress, { error: "an e-mail address" }).optional(),
  /** Its length here; how hard it is to guess when the administrator is created, at start-up (src/domain/accounts/password.ts). */
  ADMIN_PASSWORD: z
    .string()
    .refine((value) => lengthProblem(value) === null, { error: "a password of at least 8 characters and at most 72 bytes" })
    .optional(),
  BCRYPT_COST: integer(4, 15).default(10),
  NODE_ENV: oneOf(["development", "production", "test"]).default("development"),
  LOG_LEVEL: oneOf(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  SHUTDOWN_TIMEOUT_MS: integer(0, 600_000).default(10_000),
  /** Requests served at once by one process (event streams and health checks aside); more wait in line… */
  MAX_CONCURRENT_REQUESTS: limit(64),
  /** …for at most this long before they are answered 503 with Retry-After. */
  MAX_QUEUE_WAIT_MS: integer(1, 60_000).default(2000),
  /** Seed the demo accounts at start-up; on by default in development so `npm start` has data to try. */
  DEMO_DATA: flag(),
  /** Lifetime of a session token. */
  TOKEN_TTL_S: seconds(1, 365 * 24 * 3600, 7 * 24 * 3600),
  /** ids: legacy callers are the ids they send (the specification); token: legacy calls need a Bearer token. */
  LEGACY_AUTH: oneOf(["ids", "token"]).default("ids"),
  /**
   * A path the legacy routes (and document photos) also answer under, as the PHP backend the apps
   * were built against was served: /viax/backend makes /viax/backend/auth/login.php /auth/login.php.
   */
  LEGACY_PATH_PREFIX: z
    .string()
    .refine((value) => /^(\/[A-Za-z0-9._~-]+)+$/.test(value) && !/\/\.{1,2}(\/|$)/.test(value), {
      error: "a path such as /viax/backend: one or more /segments of letters, digits, . _ ~ or - (not . or ..), without a / at the end",
    })
    .optional(),
  /** Browser origins allowed to call the API, comma-separated (for example https://admin.example.co). */
  CORS_ORIGINS: z
    .string()
    .transform((value) =>
      value
        .split(",")
        .map((origin) => origin.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.url({ protocol: /^https?$/, error: "http(s) origins, comma-separated" })))
    .optional(),
  /** Introspection and field suggestions; on by default outside production. */
  GRAPHQL_INTROSPECTION: flag(),
  /** GraphiQL in the browser at /graphql; on by default outside production. */
  GRAPHIQL: flag(),
  GRAPHQL_MAX_DEPTH: limit(6),
  GRAPHQL_MAX_ALIASES: limit(15),
  GRAPHQL_MAX_TOKENS: limit(1000),
  GRAPHQL_MAX_DIRECTIVES: limit(50),
  GRAPHQL_MAX_COST: limit(5000),
  /** Wrong passwords for one e-mail before login answers 429 for the rest of the window. */
  LOGIN_MAX_FAILURES: limit(10),
  LOGIN_FAILURE_WINDOW_S: seconds(1, 24 * 3600, 15 * 60),
  /** Login attempts from one client address per LOGIN_ADDRESS_WINDOW_S. */
  LOGIN_MAX_PER_ADDRESS: limit(30),
  LOGIN_ADDRESS_WINDOW_S: seconds(1, 24 * 3600, 60),
  /**
   * The Bearer token Prometheus sends to read /metrics. Unset, /metrics is open, except in
   * production, where it stays closed until a token is set.
   */
  METRICS_TOKEN: z
    .string()
    .regex(/^\S{16,}$/, "at least 16 characters, without spaces")
    .optional(),
  /** The SMTP server outgoing mail leaves through (smtp://user:pass@host:port, smtps://…); unset, mail stays in the outbox. */
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, "a URL starting with smtp:// or smtps://")
    .pipe(z.url({ error: "a URL starting with smtp:// or smtps://" }))
    .optional(),
  /** The sender of outgoing mail: an address, or "Name <address>". */
  MAIL_FROM: z.string().refine(mailbox, { error: "an e-mail address, or Name <address>" }).optional(),
  /** How often each process looks in the outbox for mail to send (mail queued by the process itself goes at once). */
  MAIL_POLL_MS: integer(100, 600_000).default(5000),
  /** Attempts to send one mail before it is marked failed; the wait between them doubles from MAIL_RETRY_S, up to an hour. */
  MAIL_MAX_ATTEMPTS: integer(1, 50).default(8),
  MAIL_RETRY_S: decimal(0.05, 3600).default(30),
  /** How long one conversation with the SMTP server may take before it counts as failed. */
  SMTP_TIMEOUT_MS: integer(100, 300_000).default(20_000),
  /** Codes email_service.php mails to one address, and asked for from one client address, per window. */
  EMAIL_CODES_PER_RECIPIENT: limit(5),
  EMAIL_CODES_PER_ADDRESS: limit(20),
  EMAIL_CODE_WINDOW_S: seconds(60, 24 * 3600, 3600),
  /** Drivers one company may invite by e-mail (each invitation mails someone) per DRIVER_INVITATION_WINDOW_S. */
  DRIVER_INVITATIONS_PER_COMPANY: limit(20),
  DRIVER_INVITATION_WINDOW_S: seconds(60, 7 * 24 * 3600, 3600),
  /** How long a device stays locked after 5 wrong codes. */
  DEVICE_LOCK_S: seconds(10, 24 * 3600, 900),
  /** Requests for trip share links (/seguimiento/…) from one client address per SHARE_REQUEST_WINDOW_S. */
  SHARE_REQUESTS_PER_ADDRESS: limit(120),
  SHARE_REQUEST_WINDOW_S: seconds(1, 3600, 60),
  /**
   * Map tiles for the console's maps, an http(s) URL template with {z}, {x} and {y}; unset (offline
   * machines), the maps draw the city's outline on a plain background.
   */
  MAP_TILES_URL: z
    .url({ protocol: /^https?$/, error: "an http(s) URL template with {z}, {x} and {y}" })
    .refine((value) => ["{z}", "{x}", "{y}"].every((part) => value.includes(part)), "an http(s) URL template with {z}, {x} and {y}")
    .optional(),
  /** Proxies in front of the service that append to X-Forwarded-For; 0 trusts none. */
  TRUST_PROXY_HOPS: integer(0, 10).default(0),
});

/** The names of every setting (the configuration table of docs/operations.md lists each one). */
export const CONFIG_VARIABLES = Object.keys(schema.shape);

type Parsed = z.infer<typeof schema>;
export type Config = Omit<Parsed, "DEMO_DATA" | "GRAPHQL_INTROSPECTION" | "GRAPHIQL" | "CORS_ORIGINS"> & {
  DEMO_DATA: boolean;
  GRAPHQL_INTROSPECTION: boolean;
  GRAPHIQL: boolean;
  CORS_ORIGINS: string[];
};

const isOn = (value: (typeof FLAGS)[number] | undefined, fallback: boolean) =>
  value === undefined ? fallback : ["true", "1"].includes(value);

/** Settings whose values a refusal must not repeat: only their length is shown. */
const SECRETS = new Set(["URL_SIGNING_SECRET", "ADMIN_PASSWORD", "METRICS_TOKEN"]);

/** A value as a refusal shows it: secrets by their length, URLs without their password. */
function shown(name: string, value: unknown): string {
  if (value === undefined) return "nothing";
  const given = String(value);
  if (SECRETS.has(name)) return `${[...given].length} characters`;
  return JSON.stringify(given.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/@]*):[^@/]*@/i, "$1:***@"));
}

/** A configuration the service cannot start with: one line naming each variable, what it must be and what was given. */
export class ConfigError extends Error {
  constructor(problems: string[]) {
    super(`Invalid configuration: ${problems.join("; ")}`);
    this.name = "ConfigError";
  }
}

const together = (env: Record<string, unknown>, a: string, b: string) =>
  Boolean(env[a]) === Boolean(env[b]) ? [] : [`${a} and ${b} must be set together (given only ${env[a] ? a : b})`];

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // Empty strings count as unset, which is what a blank line in an env file means.
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ""));
  const parsed = schema.safeParse(present);
  if (!parsed.success) {
    const named = new Map(parsed.error.issues.map((issue) => [String(issue.path[0]), issue.message]));
    throw new ConfigError([...named].map(([name, must]) => `${name} must be ${must} (given ${shown(name, present[name])})`));
  }
  const pairs = [...together(present, "ADMIN_EMAIL", "ADMIN_PASSWORD"), ...together(present, "SMTP_URL", "MAIL_FROM")];
  if (pairs.length > 0) throw new ConfigError(pairs);
  const { DEMO_DATA, GRAPHQL_INTROSPECTION, GRAPHIQL, CORS_ORIGINS, ...rest } = parsed.data;
  const production = rest.NODE_ENV === "production";
  return {
    ...rest,
    DEMO_DATA: isOn(DEMO_DATA, rest.NODE_ENV === "development"),
    GRAPHQL_INTROSPECTION: isOn(GRAPHQL_INTROSPECTION, !production),
    GRAPHIQL: isOn(GRAPHIQL, !production),
    CORS_ORIGINS: CORS_ORIGINS?.map((origin) => new URL(origin).origin) ?? [],
  };
}
