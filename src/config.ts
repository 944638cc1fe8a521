import { z } from "zod";

const FLAGS = ["true", "false", "1", "0"] as const;
/** A yes/no setting; unset means "the default for this environment", decided in loadConfig. */
const flag = () => z.enum(FLAGS).optional();
const seconds = (min: number, max: number, fallback: number) => z.coerce.number().int().min(min).max(max).default(fallback);
const limit = (fallback: number) => z.coerce.number().int().min(1).max(1_000_000).default(fallback);

/** Every environment variable the service reads, parsed and validated in one place. */
const schema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(4000),
  HOST: z.string().default("0.0.0.0"),
  DATABASE_URL: z
    .string()
    .regex(/^(file:|postgres(ql)?:\/\/)/, "must start with file: (SQLite) or postgresql:// (PostgreSQL)")
    .default("file:./data/app.db"),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  /** How long a PostgreSQL query waits for a free connection before its request is answered 503. */
  DATABASE_POOL_TIMEOUT_MS: z.coerce.number().int().min(10).max(60_000).default(5000),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, "must start with redis:// or rediss://")
    .optional(),
  REDIS_CHANNEL_PREFIX: z.string().default("ride-hailing:"),
  OSRM_URL: z.url({ protocol: /^https?$/ }).optional(),
  NOMINATIM_URL: z.url({ protocol: /^https?$/ }).optional(),
  MAPS_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(2500),
  DRIVER_POSITION_MAX_AGE_S: z.coerce.number().int().min(5).max(3600).default(60),
  /** How often the positions drivers report are stored: a crash loses at most this much of them. */
  POSITION_FLUSH_MS: z.coerce.number().int().min(50).max(60_000).default(1000),
  /** A new trip request goes to this many of the nearest drivers at a time… */
  DISPATCH_WAVE_SIZE: z.coerce.number().int().min(1).max(1000).default(10),
  /** …and to the next nearest ones after this many seconds while nobody has taken it (decimals allowed). */
  DISPATCH_WAVE_S: z.coerce.number().min(0.05).max(600).default(15),
  /** How often each process looks for requests whose next wave is due: how late a wave may go out. */
  DISPATCH_POLL_MS: z.coerce.number().int().min(10).max(60_000).default(250),
  /** Who collects fares paid by digital wallet or card: the embedded stand-in, or nobody (cash only). */
  PAYMENT_PROVIDER: z.enum(["embedded", "none"]).default("embedded"),
  /** The smallest payout a driver may ask for, in pesos. */
  PAYOUT_MIN_COP: z.coerce.number().int().min(1).max(100_000_000).default(20_000),
  /** A driver who owes the platform more than this (commissions of cash trips) cannot go online. */
  DRIVER_MAX_DEBT_COP: z.coerce.number().int().min(0).max(100_000_000).default(50_000),
  UPLOAD_DIR: z.string().default("./data/uploads"),
  UPLOAD_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(5 * 1024 * 1024),
  /** How long a signed link to a document photo stays valid. */
  UPLOAD_URL_TTL_S: seconds(10, 7 * 24 * 3600, 900),
  /** Key that signs links to document photos; every process of one deployment needs the same one. */
  URL_SIGNING_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  ADMIN_EMAIL: z.string().optional(),
  ADMIN_PASSWORD: z.string().optional(),
  BCRYPT_COST: z.coerce.number().int().min(4).max(15).default(10),
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).default(10_000),
  /** Requests served at once by one process (event streams and health checks aside); more wait in line… */
  MAX_CONCURRENT_REQUESTS: limit(64),
  /** …for at most this long before they are answered 503 with Retry-After. */
  MAX_QUEUE_WAIT_MS: z.coerce.number().int().min(1).max(60_000).default(2000),
  /** Seed the demo accounts at start-up; on by default in development so `npm start` has data to try. */
  DEMO_DATA: flag(),
  /** Lifetime of a session token. */
  TOKEN_TTL_S: seconds(1, 365 * 24 * 3600, 7 * 24 * 3600),
  /** ids: legacy callers are the ids they send (the specification); token: legacy calls need a Bearer token. */
  LEGACY_AUTH: z.enum(["ids", "token"]).default("ids"),
  /** Browser origins allowed to call the API, comma-separated (for example https://admin.example.co). */
  CORS_ORIGINS: z
    .string()
    .transform((value) =>
      value
        .split(",")
        .map((origin) => origin.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.url({ protocol: /^https?$/ })))
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
    .regex(/^\S{16,}$/, "must be at least 16 characters, without spaces")
    .optional(),
  /** The SMTP server outgoing mail leaves through (smtp://user:pass@host:port, smtps://…); unset, mail stays in the outbox. */
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, "must start with smtp:// or smtps://")
    .pipe(z.url())
    .optional(),
  /** The sender of outgoing mail: an address, or "Name <address>". */
  MAIL_FROM: z.string().optional(),
  /** How often each process looks in the outbox for mail to send (mail queued by the process itself goes at once). */
  MAIL_POLL_MS: z.coerce.number().int().min(100).max(600_000).default(5000),
  /** Attempts to send one mail before it is marked failed; the wait between them doubles from MAIL_RETRY_S, up to an hour. */
  MAIL_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(50).default(8),
  MAIL_RETRY_S: z.coerce.number().min(0.05).max(3600).default(30),
  /** How long one conversation with the SMTP server may take before it counts as failed. */
  SMTP_TIMEOUT_MS: z.coerce.number().int().min(100).max(300_000).default(20_000),
  /** Codes email_service.php mails to one address, and asked for from one client address, per window. */
  EMAIL_CODES_PER_RECIPIENT: limit(5),
  EMAIL_CODES_PER_ADDRESS: limit(20),
  EMAIL_CODE_WINDOW_S: seconds(60, 24 * 3600, 3600),
  /** How long a device stays locked after 5 wrong codes. */
  DEVICE_LOCK_S: seconds(10, 24 * 3600, 900),
  /**
   * Map tiles for the console's maps, an http(s) URL template with {z}, {x} and {y}; unset (offline
   * machines), the maps draw the city's outline on a plain background.
   */
  MAP_TILES_URL: z
    .url({ protocol: /^https?$/ })
    .refine((value) => ["{z}", "{x}", "{y}"].every((part) => value.includes(part)), "must contain {z}, {x} and {y}")
    .optional(),
  /** Proxies in front of the service that append to X-Forwarded-For; 0 trusts none. */
  TRUST_PROXY_HOPS: z.coerce.number().int().min(0).max(10).default(0),
});

type Parsed = z.infer<typeof schema>;
export type Config = Omit<Parsed, "DEMO_DATA" | "GRAPHQL_INTROSPECTION" | "GRAPHIQL" | "CORS_ORIGINS"> & {
  DEMO_DATA: boolean;
  GRAPHQL_INTROSPECTION: boolean;
  GRAPHIQL: boolean;
  CORS_ORIGINS: string[];
};

const isOn = (value: (typeof FLAGS)[number] | undefined, fallback: boolean) =>
  value === undefined ? fallback : ["true", "1"].includes(value);

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // Empty strings count as unset, which is what a blank line in an env file means.
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ""));
  const parsed = schema.safeParse(present);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
    throw new Error(`Invalid configuration: ${problems}`);
  }
  if (Boolean(parsed.data.ADMIN_EMAIL) !== Boolean(parsed.data.ADMIN_PASSWORD)) {
    throw new Error("Invalid configuration: ADMIN_EMAIL and ADMIN_PASSWORD must be set together");
  }
  if (Boolean(parsed.data.SMTP_URL) !== Boolean(parsed.data.MAIL_FROM)) {
    throw new Error("Invalid configuration: SMTP_URL and MAIL_FROM must be set together");
  }
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
