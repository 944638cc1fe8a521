import { z } from "zod";

/** Every environment variable the service reads, parsed and validated in one place. */
const schema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(4000),
  HOST: z.string().default("0.0.0.0"),
  DATABASE_URL: z
    .string()
    .regex(/^(file:|postgres(ql)?:\/\/)/, "must start with file: (SQLite) or postgresql:// (PostgreSQL)")
    .default("file:./data/app.db"),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  REDIS_URL: z.string().regex(/^rediss?:\/\//, "must start with redis:// or rediss://").optional(),
  REDIS_CHANNEL_PREFIX: z.string().default("ride-hailing:"),
  OSRM_URL: z.url({ protocol: /^https?$/ }).optional(),
  NOMINATIM_URL: z.url({ protocol: /^https?$/ }).optional(),
  MAPS_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(2500),
  DRIVER_POSITION_MAX_AGE_S: z.coerce.number().int().min(5).max(3600).default(60),
  UPLOAD_DIR: z.string().default("./data/uploads"),
  UPLOAD_MAX_BYTES: z.coerce.number().int().min(1024).default(5 * 1024 * 1024),
  ADMIN_EMAIL: z.string().optional(),
  ADMIN_PASSWORD: z.string().optional(),
  BCRYPT_COST: z.coerce.number().int().min(4).max(15).default(10),
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).default(10_000),
  /** Seed the demo accounts at start-up; on by default in development so `npm start` has data to try. */
  DEMO_DATA: z.enum(["true", "false", "1", "0"]).optional(),
});

export type Config = Omit<z.infer<typeof schema>, "DEMO_DATA"> & { DEMO_DATA: boolean };

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
  const { DEMO_DATA, ...rest } = parsed.data;
  return { ...rest, DEMO_DATA: DEMO_DATA === undefined ? rest.NODE_ENV === "development" : ["true", "1"].includes(DEMO_DATA) };
}
