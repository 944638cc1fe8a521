import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CONFIG_VARIABLES, ConfigError, loadConfig } from "../src/config.js";

describe("configuration", () => {
  it("has defaults that run the embedded mode", () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ PORT: 4000, DATABASE_URL: "file:./data/app.db", NODE_ENV: "development", DEMO_DATA: true });
    expect(config.REDIS_URL).toBeUndefined();
  });

  it("turns demo data off outside development unless asked", () => {
    expect(loadConfig({ NODE_ENV: "production" }).DEMO_DATA).toBe(false);
    expect(loadConfig({ NODE_ENV: "production", DEMO_DATA: "1" }).DEMO_DATA).toBe(true);
    expect(loadConfig({ DEMO_DATA: "false" }).DEMO_DATA).toBe(false);
  });

  it("treats empty values as unset", () => {
    const config = loadConfig({ PORT: "", REDIS_URL: "" });
    expect(config.PORT).toBe(4000);
    expect(config.REDIS_URL).toBeUndefined();
  });

  it("keeps the legacy id contract by default and opens introspection only outside production", () => {
    expect(loadConfig({})).toMatchObject({ LEGACY_AUTH: "ids", GRAPHQL_INTROSPECTION: true, CORS_ORIGINS: [], TOKEN_TTL_S: 7 * 24 * 3600 });
    expect(loadConfig({ NODE_ENV: "production" }).GRAPHQL_INTROSPECTION).toBe(false);
    expect(loadConfig({ NODE_ENV: "production", GRAPHQL_INTROSPECTION: "true" }).GRAPHQL_INTROSPECTION).toBe(true);
    expect(loadConfig({ LEGACY_AUTH: "token" }).LEGACY_AUTH).toBe("token");
  });

  it("takes a path prefix for the legacy routes as a path of one or more segments, and nothing else", () => {
    expect(loadConfig({}).LEGACY_PATH_PREFIX).toBeUndefined();
    expect(loadConfig({ LEGACY_PATH_PREFIX: "/viax/backend" }).LEGACY_PATH_PREFIX).toBe("/viax/backend");
    expect(loadConfig({ LEGACY_PATH_PREFIX: "/api" }).LEGACY_PATH_PREFIX).toBe("/api");
    for (const bad of ["/", "viax/backend", "/viax/backend/", "/viax//backend", "/viax backend", "/viax/backend?x=1", "/viax/../x"]) {
      expect(() => loadConfig({ LEGACY_PATH_PREFIX: bad }), bad).toThrow(
        /^Invalid configuration: LEGACY_PATH_PREFIX must be a path such as \/viax\/backend/,
      );
    }
  });

  it("reads the allowed browser origins as a list of origins", () => {
    expect(loadConfig({ CORS_ORIGINS: "https://admin.example.co, http://localhost:5173/" }).CORS_ORIGINS).toEqual([
      "https://admin.example.co",
      "http://localhost:5173",
    ]);
  });

  it.each([
    [{ LEGACY_AUTH: "none" }, /LEGACY_AUTH/],
    [{ CORS_ORIGINS: "*" }, /CORS_ORIGINS/],
    [{ URL_SIGNING_SECRET: "corta" }, /URL_SIGNING_SECRET/],
    [{ TOKEN_TTL_S: "0" }, /TOKEN_TTL_S/],
    [{ PORT: "abc" }, /PORT/],
    [{ DATABASE_URL: "mysql://x" }, /DATABASE_URL/],
    [{ REDIS_URL: "http://x" }, /REDIS_URL/],
    [{ ADMIN_EMAIL: "a@b.co" }, /ADMIN_EMAIL and ADMIN_PASSWORD/],
    [{ LOG_LEVEL: "loud" }, /LOG_LEVEL/],
  ])("refuses %j", (env, message) => {
    expect(() => loadConfig(env)).toThrow(message);
  });

  it("checks every variable of the configuration table in docs/operations.md, and the table lists every one it reads", () => {
    const page = readFileSync("docs/operations.md", "utf8");
    const start = page.indexOf("## Configuration");
    const end = page.indexOf("Used only by the tests and tools", start);
    expect(start).toBeGreaterThan(-1);
    expect(end).toBeGreaterThan(start);
    const table = page.slice(start, end);
    const listed = [...table.matchAll(/^\| (`[A-Z_]+`(?:, `[A-Z_]+`)*) \|/gm)].flatMap((row) =>
      row[1]!.split(", ").map((name) => name.slice(1, -1)),
    );
    expect([...listed].sort()).toEqual([...CONFIG_VARIABLES].sort());
    expect(Object.keys(BAD).sort()).toEqual([...CONFIG_VARIABLES].sort());
  });

  it.each(Object.entries(BAD))("refuses a bad %s in one line that names it, what it must be and what was given", (name, bad) => {
    const env = { ...TOGETHER[name], [name]: bad };
    let error: unknown;
    try {
      loadConfig(env);
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message).not.toContain("\n");
    expect(message).toMatch(new RegExp(`^Invalid configuration: ${name} must be \\S.* \\(given .+\\)$`));
    // Secrets are shown only by their length.
    if (/SECRET|PASSWORD|TOKEN$/.test(name)) expect(message).not.toContain(bad);
  });

  it("refuses a sender that is neither an address nor Name <address>, and takes both forms", () => {
    const smtp = { SMTP_URL: "smtp://correo.example.co:587" };
    expect(loadConfig({ ...smtp, MAIL_FROM: "no-responder@example.co" }).MAIL_FROM).toBe("no-responder@example.co");
    expect(loadConfig({ ...smtp, MAIL_FROM: "Viax <no-responder@example.co>" }).MAIL_FROM).toBe("Viax <no-responder@example.co>");
    for (const bad of ["Viax", "Viax <no-responder>", "<>", "a@b@c.co"]) {
      expect(() => loadConfig({ ...smtp, MAIL_FROM: bad }), bad).toThrow(
        `Invalid configuration: MAIL_FROM must be an e-mail address, or Name <address> (given ${JSON.stringify(bad)})`,
      );
    }
  });

  it("never repeats a password a URL carries", () => {
    expect(() => loadConfig({ DATABASE_URL: "mysql://servicio:clave-secreta@db/app" })).toThrow(
      'Invalid configuration: DATABASE_URL must be file:<path> (SQLite) or postgresql://… (PostgreSQL) (given "mysql://servicio:***@db/app")',
    );
  });
});

/** A value each variable refuses. */
const BAD: Record<string, string> = {
  PORT: "70000",
  HOST: "no es un host",
  DATABASE_URL: "mysql://x",
  DATABASE_POOL_SIZE: "0",
  DATABASE_POOL_TIMEOUT_MS: "5",
  REDIS_URL: "http://x",
  REDIS_CHANNEL_PREFIX: " ",
  OSRM_URL: "ftp://osrm",
  NOMINATIM_URL: "nominatim",
  MAPS_TIMEOUT_MS: "1",
  DRIVER_POSITION_MAX_AGE_S: "1",
  POSITION_FLUSH_MS: "0",
  DISPATCH_WAVE_SIZE: "0",
  DISPATCH_WAVE_S: "0",
  DISPATCH_POLL_MS: "1",
  QUOTE_TTL_S: "0",
  BOOKING_MIN_AHEAD_MIN: "-1",
  BOOKING_MAX_AHEAD_DAYS: "0",
  BOOKING_DISPATCH_LEAD_MIN: "-1",
  BOOKING_GRACE_MIN: "1441",
  BOOKING_POLL_MS: "1",
  CHANGE_ANSWER_S: "4",
  PAYMENT_PROVIDER: "paypal",
  PAYOUT_MIN_COP: "-1",
  DRIVER_MAX_DEBT_COP: "mucho",
  UPLOAD_DIR: " ",
  UPLOAD_MAX_BYTES: "10",
  UPLOAD_URL_TTL_S: "1",
  URL_SIGNING_SECRET: "corta",
  ADMIN_EMAIL: "jefa",
  ADMIN_PASSWORD: "debil",
  BCRYPT_COST: "31",
  NODE_ENV: "staging",
  LOG_LEVEL: "loud",
  SHUTDOWN_TIMEOUT_MS: "-5",
  MAX_CONCURRENT_REQUESTS: "0",
  MAX_QUEUE_WAIT_MS: "0",
  DEMO_DATA: "quizas",
  TOKEN_TTL_S: "0",
  LEGACY_AUTH: "none",
  LEGACY_PATH_PREFIX: "viax/backend",
  CORS_ORIGINS: "*",
  GRAPHQL_INTROSPECTION: "si",
  GRAPHIQL: "no",
  GRAPHQL_MAX_DEPTH: "0",
  GRAPHQL_MAX_ALIASES: "x",
  GRAPHQL_MAX_TOKENS: "1.5",
  GRAPHQL_MAX_DIRECTIVES: "-1",
  GRAPHQL_MAX_COST: "0",
  LOGIN_MAX_FAILURES: "0",
  LOGIN_FAILURE_WINDOW_S: "0",
  LOGIN_MAX_PER_ADDRESS: "0",
  LOGIN_ADDRESS_WINDOW_S: "0",
  METRICS_TOKEN: "corto",
  SMTP_URL: "http://correo",
  MAIL_FROM: "nadie",
  MAIL_POLL_MS: "1",
  MAIL_MAX_ATTEMPTS: "0",
  MAIL_RETRY_S: "0",
  SMTP_TIMEOUT_MS: "1",
  EMAIL_CODES_PER_RECIPIENT: "0",
  EMAIL_CODES_PER_ADDRESS: "0",
  EMAIL_CODE_WINDOW_S: "1",
  DRIVER_INVITATIONS_PER_COMPANY: "0",
  DRIVER_INVITATION_WINDOW_S: "59",
  PUBLIC_URL: "viajes.example.co",
  SOS_EMAIL: "operaciones",
  SOS_ESCALATION_EMAIL: "gerencia@",
  SOS_ESCALATE_S: "0",
  DEVICE_LOCK_S: "1",
  SHARE_REQUESTS_PER_ADDRESS: "0",
  SHARE_REQUEST_WINDOW_S: "0",
  MAP_TILES_URL: "https://tiles.example.co/mapa.png",
  TRUST_PROXY_HOPS: "11",
  SOS_POLL_MS: "10",
};

/** Variables that come in pairs, so that a bad one is refused for itself and not for its missing partner. */
const TOGETHER: Record<string, Record<string, string>> = {
  ADMIN_EMAIL: { ADMIN_PASSWORD: "Admin#Segura1" },
  ADMIN_PASSWORD: { ADMIN_EMAIL: "jefa@example.co" },
  SMTP_URL: { MAIL_FROM: "no-responder@example.co" },
  MAIL_FROM: { SMTP_URL: "smtp://correo.example.co" },
};
