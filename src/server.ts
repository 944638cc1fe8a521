import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createServerAdapter } from "@whatwg-node/server";
import type { Config } from "./config.js";
import { openDatabase } from "./db/client.js";
import { applyMigrations } from "./db/migrate.js";
import { ensureInitialAdmin } from "./domain/accounts/initial-admin.js";
import { systemClock, type Clock, type Deps } from "./domain/deps.js";
import { createEvents } from "./graphql/pubsub.js";
import { schema } from "./graphql/schema.js";
import { attachGraphQLWebSocket } from "./graphql/websocket.js";
import { createGraphQL } from "./graphql/yoga.js";
import { createLogger, type AppLogger } from "./logger.js";
import { seedDemoData } from "./demo/seed.js";
import { simulateDemoDrivers } from "./demo/simulator.js";
import { createMaps } from "./maps/index.js";
import { UPLOADS_PATH, localUploads } from "./files/uploads.js";
import { DriverGeoIndex } from "./domain/matching/geo-index.js";
import { feedDriverIndex } from "./domain/matching/index-feed.js";
import { legacyRoutes } from "./rest/routes/index.js";
import { createShim, type Execute } from "./rest/shim.js";

const BODY_LIMIT = 1024 * 1024;

export interface BuildOptions {
  clock?: Clock;
  log?: AppLogger;
  onQuery?: (sql: string) => void;
}

/**
 * Everything the service is, on one port: GraphQL over HTTP and WebSocket at /graphql, the legacy
 * `.php` shim, and health checks. Migrations run and the first administrator is created here.
 */
export async function buildServer(config: Config, options: BuildOptions = {}) {
  const log = options.log ?? createLogger(config);
  const applied = await applyMigrations(config.DATABASE_URL);
  if (applied.length > 0) log.info({ applied }, "migrations applied");
  const database = await openDatabase(config.DATABASE_URL, { poolSize: config.DATABASE_POOL_SIZE, onQuery: options.onQuery });
  const events = await createEvents(config.REDIS_URL, config.REDIS_CHANNEL_PREFIX);

  const uploads = localUploads(config.UPLOAD_DIR, config.UPLOAD_MAX_BYTES);
  const deps: Deps = {
    db: database.prisma,
    provider: database.provider,
    clock: options.clock ?? systemClock,
    log,
    events: events.pubsub,
    maps: createMaps(config, log),
    matching: { index: new DriverGeoIndex(), positionMaxAgeMs: config.DRIVER_POSITION_MAX_AGE_S * 1000 },
    bcryptCost: config.BCRYPT_COST,
    uploads,
    onMailQueued: (mail) => {
      if (config.NODE_ENV === "development") log.info({ mail }, "mail queued in the outbox");
    },
  };

  if (config.DEMO_DATA) {
    const { users } = await seedDemoData(deps);
    log.info({ users }, "demo data ready");
  }
  const demoDrivers = config.DEMO_DATA ? simulateDemoDrivers(deps) : null;

  const positions = events.pubsub.subscribe("posicion_conductor");
  await feedDriverIndex(
    deps.db,
    deps.matching.index,
    positions,
    new Date(deps.clock.now().getTime() - deps.matching.positionMaxAgeMs),
  );

  if (config.ADMIN_EMAIL && config.ADMIN_PASSWORD) {
    const admin = await ensureInitialAdmin(deps, { email: config.ADMIN_EMAIL, password: config.ADMIN_PASSWORD });
    if (admin) log.info({ email: admin.email }, "initial administrator created");
  }

  const { yoga, executeOperation } = createGraphQL(deps, events.pubsub);
  const shim = createShim(legacyRoutes, {
    schema,
    execute: executeOperation as Execute,
    log,
    bodyLimit: BODY_LIMIT,
    // Room for a file a little over the limit, so its sender hears about the file, not the body.
    multipartLimit: 2 * config.UPLOAD_MAX_BYTES,
  });

  let stopping: Promise<void> | null = null;

  async function readiness(): Promise<Response> {
    if (stopping) return Response.json({ status: "stopping" }, { status: 503 });
    try {
      await Promise.all([database.ping(), events.ping()]);
      return Response.json({ status: "ready" });
    } catch (error) {
      log.warn({ err: error }, "not ready");
      return Response.json({ status: "unavailable" }, { status: 503 });
    }
  }

  async function route(request: Request): Promise<Response> {
    const { pathname } = new URL(request.url);
    if (pathname === "/healthz") return Response.json({ status: "ok" });
    if (pathname === "/readyz") return readiness();
    if (pathname.startsWith(UPLOADS_PATH) && request.method === "GET") return uploads.serve(pathname);
    if (shim.handles(pathname)) return shim.handle(request);
    return yoga.fetch(request);
  }

  const app = createServerAdapter(async (request: Request) => {
    const response = await route(request);
    // While stopping, a keep-alive connection would outlive its last request and hold the stop up.
    if (stopping) response.headers.set("connection", "close");
    return response;
  });

  let http: Server | null = null;
  let disposeWebSockets: (() => Promise<void>) | null = null;

  async function start(port = config.PORT, host = config.HOST): Promise<{ port: number }> {
    http = createServer(app);
    disposeWebSockets = attachGraphQLWebSocket(http, yoga);
    await new Promise<void>((resolve, reject) => {
      http!.once("error", reject);
      http!.listen(port, host, () => resolve());
    });
    const actual = (http.address() as AddressInfo).port;
    log.info({ port: actual, database: database.provider, events: config.REDIS_URL ? "redis" : "in-process" }, "listening");
    return { port: actual };
  }

  /** Stops accepting, lets requests in flight finish, closes WebSockets, then the database. */
  function stop(): Promise<void> {
    stopping ??= (async () => {
      if (http) {
        const server = http;
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        await disposeWebSockets?.();
        // Long-lived streams (SSE) do not end by themselves: cut them after the grace period.
        const force = setTimeout(() => server.closeAllConnections(), config.SHUTDOWN_TIMEOUT_MS);
        await closed;
        clearTimeout(force);
      }
      demoDrivers?.stop();
      await positions.return?.();
      await yoga.dispose();
      await events.close();
      await database.close();
      log.info({}, "stopped");
    })();
    return stopping;
  }

  return { deps, fetch: (request: Request) => app.fetch(request), start, stop };
}

export type AppServer = Awaited<ReturnType<typeof buildServer>>;
