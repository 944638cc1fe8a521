import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Duplex } from "node:stream";
import type { Plugin } from "graphql-yoga";
import { ConfigError, type Config } from "./config.js";
import { openDatabase } from "./db/client.js";
import { plannedReads } from "./db/planned-reads.js";
import { afterCommit, unitAware } from "./db/unit.js";
import { applyMigrations } from "./db/migrate.js";
import { ensureInitialAdmin } from "./domain/accounts/initial-admin.js";
import { systemClock, type Clock, type Deps } from "./domain/deps.js";
import { authorizeDocumentRead } from "./domain/drivers/documents.js";
import { DomainError, ValidationError } from "./domain/errors.js";
import type { EventMap } from "./domain/events.js";
import { databaseOutage } from "./domain/outage.js";
import { HTTP_STATUS } from "./http/status.js";
import { startCatchUp } from "./background/catch-up.js";
import { startSosSweep } from "./background/sos-sweep.js";
import { createEvents } from "./events/bus.js";
import { schema } from "./graphql/schema.js";
import { attachGraphQLWebSocket } from "./graphql/websocket.js";
import { createIdentity } from "./graphql/identity.js";
import { GRAPHQL_PATH, GRAPHQL_SSE_PATH, createGraphQL } from "./graphql/yoga.js";
import { Admission } from "./http/admission.js";
import { BUSY, busyHeaders, busyResponse } from "./http/overload.js";
import { Response } from "./http/response.js";
import { useIdempotency } from "./http/idempotency.js";
import { sendSecured } from "./http/security-headers.js";
import { failure } from "./http/failure.js";
import { requestIdOf } from "./http/request-id.js";
import { ListenError } from "./http/listen-error.js";
import { answerClientError } from "./http/client-error.js";
import { createLogger, requestScope, type AppLogger } from "./logger.js";
import { seedDemoData } from "./demo/seed.js";
import { simulateDemoDrivers } from "./demo/simulator.js";
import { createMaps } from "./adapters/maps/index.js";
import { mailDelivery } from "./adapters/mail/index.js";
import { countOutbox } from "./domain/mail/outbox.js";
import { isUploadPath, localUploads } from "./adapters/uploads.js";
import { type Refusal, useUploads } from "./http/uploads.js";
import { legacyTarget } from "./http/legacy-prefix.js";
import { attemptCounter } from "./adapters/attempt-counters.js";
import {
  POSITION_ANNOUNCE_MS,
  announcePositions,
  followPresences,
  loadPresences,
  savePositions,
} from "./domain/matching/online-drivers.js";
import { DriverPresence } from "./domain/presence/presence.js";
import { ShownOffers } from "./domain/presence/shown-offers.js";
import { startDispatcher } from "./background/dispatcher.js";
import { startDocumentReminders } from "./background/document-reminders.js";
import { startSosEscalation } from "./background/sos-escalation.js";
import type { Passes } from "./domain/passes.js";
import { embeddedPayments } from "./domain/payment-methods.js";
import { CallerCache } from "./domain/callers.js";
import { followAccountChanges } from "./domain/accounts/sessions.js";
import { legacyRoutes } from "./rest/routes/index.js";
import { SOS_PATHS } from "./rest/routes/sos.js";
import { useApiDocs } from "./rest/reference-page.js";
import { useConsole } from "./http/console.js";
import { useSharePage } from "./http/share-page.js";
import { legacyShim } from "./rest/shim.js";
import { METRICS_PATH, useMetrics } from "./metrics/plugin.js";
import { Metrics } from "./metrics/registry.js";

const BODY_LIMIT = 1024 * 1024;

export interface BuildOptions {
  clock?: Clock;
  log?: AppLogger;
  onQuery?: (sql: string) => void;
}

/** The request's URL, parsed once here; null when the Host header or request target is not a URL. */
function urlOf(req: IncomingMessage): URL | null {
  try {
    return new URL(req.url ?? "/", `http://${req.headers.host ?? "localhost"}`);
  } catch {
    return null;
  }
}

const MALFORMED_URL = "La petición no es válida: la cabecera Host o la ruta están mal formadas";

/** How long an idle keep-alive connection is kept open. */
const KEEP_ALIVE_MS = 65_000;

/**
 * Everything the service is, on one port: GraphQL over HTTP and WebSocket at /graphql, the legacy
 * `.php` shim, document photos and health checks, all through Yoga's plugins. Migrations run and
 * the first administrator is created here.
 */
export async function buildServer(config: Config, options: BuildOptions = {}) {
  const log = options.log ?? createLogger(config);
  const applied = await applyMigrations(config.DATABASE_URL);
  if (applied.length > 0) log.info({ applied }, "migrations applied");
  const database = await openDatabase(config.DATABASE_URL, {
    poolSize: config.DATABASE_POOL_SIZE,
    poolTimeoutMs: config.DATABASE_POOL_TIMEOUT_MS,
    onQuery: options.onQuery,
  });
  const events = await createEvents(config.REDIS_URL, config.REDIS_CHANNEL_PREFIX, log);
  // Whatever fails because the database cannot serve now is counted here, not logged one by one.
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

  if (config.DEMO_DATA) {
    // Optional: a process whose demo data could not be loaded serves all the same.
    await seedDemoData(deps).then(
      ({ users }) => log.info({ users }, "demo data ready"),
      (error: unknown) => log.error({ err: error }, "demo data could not be loaded; serving without it"),
    );
  }

  const accountChanges = followAccountChanges(deps);
  // Followed before loading, so that nothing decided meanwhile is missed.
  const presences = followPresences(deps);
  await loadPresences(deps);
  // Who is online, read again from the database; if it is away, once it is back.
  const reloadPresences = (): Promise<void> =>
    loadPresences(deps).catch((error) => {
      if (outage.report("presence reloads", error)) outage.whenBack(reloadPresences);
      else log.error({ err: error }, "could not read the drivers online again after Redis came back");
    });
  // What other processes announced while Redis was away never arrives: callers are read again, and
  // who is online is read again from the database.
  events.onRecovered(() => {
    deps.callers.clear();
    deps.matching.presence.forgetAll();
    void reloadPresences();
  });
  // Positions that could not be stored wait for the next flush.
  const flushPositions = () => savePositions(deps).catch(outage.caught("position flushes", "could not store driver positions"));

  if (config.ADMIN_EMAIL && config.ADMIN_PASSWORD) {
    const admin = await ensureInitialAdmin(deps, { email: config.ADMIN_EMAIL, password: config.ADMIN_PASSWORD }).catch((error: unknown) => {
      // A password the policy refuses is a setting the service cannot start with.
      if (!(error instanceof ValidationError)) throw error;
      throw new ConfigError([
        `${error.field} must be a password hard to guess, and this one ${error.reason} (given ${[...config.ADMIN_PASSWORD!].length} characters)`,
      ]);
    });
    if (admin) log.info({ email: admin.email }, "initial administrator created");
  }

  /**
   * What the process does of its own accord: sending waves, mail and document reminders, escalating
   * SOSs nobody acknowledged, storing and announcing positions, catching up while Redis is away (and
   * on SOSs another process could not announce), moving the demo drivers. Begun once
   * it serves (start), so that a process that cannot listen claims no wave and no mail; served
   * in-process (the tests), it is begun by `startWork`.
   */
  let work: { dispatcher: Passes; reminders: Passes; escalation: Passes; stop(): Promise<void> } | null = null;
  function startWork() {
    if (work || stopping) return;
    const demoDrivers = config.DEMO_DATA
      ? simulateDemoDrivers(deps, outage.caught("demo position reports", "demo drivers could not report their positions"))
      : null;
    // Once the drivers online are known (above): a wave sent before would find nobody to go to.
    const dispatcher = startDispatcher(deps, { pollMs: config.DISPATCH_POLL_MS, database: outage });
    const stopCatchUp = startCatchUp(deps, events, outage);
    const reminders = startDocumentReminders(deps, outage);
    const escalation = startSosEscalation(deps, { pollMs: config.SOS_POLL_MS, database: outage });
    const stopSosSweep = startSosSweep(deps, events, outage);
    const flushing = setInterval(flushPositions, config.POSITION_FLUSH_MS);
    const announcing = setInterval(() => announcePositions(deps), POSITION_ANNOUNCE_MS);
    mail.start();
    work = {
      dispatcher,
      reminders,
      escalation,
      stop: async () => {
        demoDrivers?.stop();
        await dispatcher.stop();
        await reminders.stop();
        await escalation.stop();
        stopSosSweep();
        clearInterval(flushing);
        clearInterval(announcing);
        stopCatchUp();
      },
    };
  }
  if (config.LEGACY_AUTH === "ids" && config.NODE_ENV === "production") {
    log.warn({}, "LEGACY_AUTH=ids: legacy callers are trusted to be the ids they send; set LEGACY_AUTH=token once the apps send tokens");
  }

  /** A figure for /metrics: unknown (NaN) while the database cannot serve, counted in its outage rather than logged. */
  const reading =
    <T>(read: () => Promise<T>, unknown: T) =>
    () =>
      read().catch((error: unknown) => {
        if (outage.report("metrics readings", error)) return unknown;
        throw error;
      });
  const identity = createIdentity(deps, { legacyAuth: config.LEGACY_AUTH, trustProxyHops: config.TRUST_PROXY_HOPS });
  const metrics = new Metrics({
    paths: [
      ...legacyRoutes.flatMap((route) => [route.path, ...(route.aliases ?? [])]),
      GRAPHQL_PATH,
      GRAPHQL_SSE_PATH,
      "/healthz",
      "/readyz",
    ],
    pendingTrips: reading(() => deps.db.trip.count({ where: { estado: "pendiente" } }), Number.NaN),
    outbox: reading(() => countOutbox(deps.db), { pendiente: Number.NaN, enviado: Number.NaN, fallido: Number.NaN, vencido: Number.NaN }),
    drivers: () => deps.matching.presence.all(),
    pool: () => database.poolState(),
    events: () => events.status(),
    log,
  });
  // What /metrics shows (drivers, trips, traffic) is the business's own: production keeps it closed without a token.
  const metricsAccess = { token: config.METRICS_TOKEN, closedWithoutToken: config.NODE_ENV === "production" };
  if (!config.METRICS_TOKEN && metricsAccess.closedWithoutToken) log.warn({}, "METRICS_TOKEN is not set: /metrics is closed");
  let stopping: Promise<void> | null = null;
  // While stopping, a keep-alive connection would outlive its last request and hold the stop up.
  const closeWhileStopping = (response: Response) => {
    if (stopping) response.headers.set("connection", "close");
  };

  async function readiness(): Promise<Response> {
    if (stopping) return Response.json({ status: "stopping" }, { status: 503 });
    // Each dependency's reason, in words safe to show: the database's error stays in the log.
    const reasons = await Promise.all([
      database.ping().then(
        () => null,
        (error) => {
          outage.caught("readiness checks", "not ready: the database does not answer")(error);
          return "database: unreachable";
        },
      ),
      // Redis's own problems are logged, rate-limited, where they happen.
      events.ping().then(
        () => null,
        (error: Error) => `redis: ${error.message}`,
      ),
    ]);
    const reason = reasons.filter(Boolean).join("; ");
    if (!reason) return Response.json({ status: "ready" });
    return Response.json({ status: "unavailable", reason }, { status: 503 });
  }

  async function mayReadDocument(request: Request, serverContext: object, key: string): Promise<Refusal | null> {
    try {
      authorizeDocumentRead(await identity.actor({ ...serverContext, request }), key);
      return null;
    } catch (error) {
      if (error instanceof DomainError) return { status: HTTP_STATUS[error.code], message: error.message };
      if (outage.report("requests", error)) return { status: BUSY.status, message: BUSY.message, headers: busyHeaders };
      log.error({ err: error }, "could not check who may read a document");
      return { status: 500, message: "Error interno del servidor" };
    }
  }

  const operations: Plugin = {
    onRequest({ url, endResponse }) {
      if (url.pathname === "/healthz") endResponse(Response.json({ status: "ok" }));
      else if (url.pathname === "/readyz") return readiness().then(endResponse);
    },
    onResponse({ response }) {
      closeWhileStopping(response);
    },
  };

  const sharePage = useSharePage({
    deps,
    tilesUrl: config.MAP_TILES_URL,
    addressOf: (request, serverContext) => identity.address({ ...serverContext, request }),
    database: outage,
    log,
  });

  const shim = legacyShim(legacyRoutes, {
    schema,
    log,
    bodyLimit: BODY_LIMIT,
    multipartLimit: 2 * config.UPLOAD_MAX_BYTES,
    countError: (code) => metrics.countError(code),
    database: outage,
    unsigned: identity.unsignedLegacyCall,
  });

  const yoga = createGraphQL(deps, events.pubsub, {
    identity,
    edge: {
      introspection: config.GRAPHQL_INTROSPECTION,
      maxDepth: config.GRAPHQL_MAX_DEPTH,
      maxAliases: config.GRAPHQL_MAX_ALIASES,
      maxTokens: config.GRAPHQL_MAX_TOKENS,
      maxDirectives: config.GRAPHQL_MAX_DIRECTIVES,
      maxCost: config.GRAPHQL_MAX_COST,
      corsOrigins: config.CORS_ORIGINS,
      bodyLimit: BODY_LIMIT,
      // Room for a file a little over the limit, so its sender hears about the file, not the body.
      multipartLimit: 2 * config.UPLOAD_MAX_BYTES,
    },
    graphiql: config.GRAPHIQL,
    metrics: useMetrics(metrics, metricsAccess, log),
    database: outage,
    routes: [
      useIdempotency(database.prisma, {
        clock,
        log,
        provider: database.provider,
        database: outage,
        bodyLimit: BODY_LIMIT,
        multipartLimit: 2 * config.UPLOAD_MAX_BYTES,
      }),
      operations,
      useUploads(uploads, mayReadDocument),
      useApiDocs(legacyRoutes),
      useConsole({ tilesUrl: config.MAP_TILES_URL }),
      sharePage.plugin,
      shim.plugin,
    ],
  });

  let http: Server | null = null;
  let disposeWebSockets: (() => Promise<void>) | null = null;
  /** Connections upgraded to WebSockets: the HTTP server no longer counts them as its own. */
  const upgraded = new Set<Duplex>();

  const admission = new Admission(config.MAX_CONCURRENT_REQUESTS, config.MAX_QUEUE_WAIT_MS);
  /**
   * Health checks, event streams (which stay open for as long as the client listens), scrapes (a
   * busy process is when its metrics matter most) and SOSs (someone in danger is never told to try
   * later; a call from anyone else is refused at the cost of one read) skip the line.
   */
  const waitsInLine = (req: IncomingMessage, pathname: string) =>
    !["/healthz", "/readyz", METRICS_PATH].includes(pathname) &&
    !SOS_PATHS.has(pathname) &&
    !/text\/event-stream/.test(req.headers.accept ?? "");

  async function serve(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const { pathname } = url;
    if (waitsInLine(req, pathname)) {
      const arrived = performance.now();
      const leaveLine = metrics.queued();
      const admitted = await admission.enter();
      leaveLine();
      if (!admitted) {
        log.warn({ path: req.url }, "too busy: request turned away");
        const busy = busyResponse(pathname.startsWith(GRAPHQL_PATH));
        await sendSecured(busy, res);
        metrics.observeRequest(req.method ?? "", pathname, busy.status, (performance.now() - arrived) / 1000);
        return;
      }
      const served = metrics.inFlight();
      res.once("close", () => {
        admission.leave();
        served();
      });
    }
    const started = performance.now();
    const lane = shim.fromNode(req, res, url);
    if (!lane) return yoga(req, res);
    const response = await lane;
    closeWhileStopping(response);
    await sendSecured(response, res);
    metrics.observeRequest(req.method ?? "", pathname, response.status, (performance.now() - started) / 1000);
  }

  const targetOf = legacyTarget(config.LEGACY_PATH_PREFIX, (pathname) => shim.serves(pathname) || isUploadPath(pathname));

  /** Node's listener for every HTTP request but WebSocket upgrades. */
  function listener(req: IncomingMessage, res: ServerResponse): void {
    const request_id = requestIdOf(req);
    res.setHeader("x-request-id", request_id);
    // Read as the path it stands for, by every lane and plugin after this (metrics and logs included).
    req.url = targetOf(req.url ?? "/");
    requestScope.run({ request_id }, () => {
      // A URL that does not parse is answered here, before anything else tries to parse it.
      const url = urlOf(req);
      const served = url ? serve(req, res, url) : sendSecured(failure(400, MALFORMED_URL), res);
      served.catch((error) => log.error({ err: error }, "request failed outside GraphQL"));
    });
  }

  /** A node:http server for the service's requests, WebSocket upgrades aside. */
  function httpServer(): Server {
    const server = createServer(listener);
    // Longer than the app keeps an idle connection (Dart's HttpClient: 15 s), so that the phone
    // closes it first: a server closing it just as a request goes out resets that request.
    server.keepAliveTimeout = KEEP_ALIVE_MS;
    server.on("clientError", answerClientError);
    return server;
  }

  async function start(port = config.PORT, host = config.HOST): Promise<{ port: number }> {
    http = httpServer();
    http.on("upgrade", (_req, socket: Duplex) => {
      upgraded.add(socket);
      socket.once("close", () => upgraded.delete(socket));
    });
    const server = http;
    await new Promise<void>((resolve, reject) => {
      server.once("error", (error: NodeJS.ErrnoException) => reject(new ListenError(host, port, error)));
      // WebSockets are attached as it starts listening, in the same turn: a server that could not
      // listen has nothing of theirs to report, and no upgrade can come before them.
      server.listen(port, host, () => {
        disposeWebSockets = attachGraphQLWebSocket(server, yoga, {
          identity,
          pubsub: events.pubsub,
          log,
          clock,
          metrics,
          database: outage,
        });
        resolve();
      });
    });
    const actual = (server.address() as AddressInfo).port;
    // Links in mails name the port actually taken (PORT=0 picks one), unless PUBLIC_URL says where people reach the service.
    if (!config.PUBLIC_URL) deps.safety.publicUrl = `http://localhost:${actual}`;
    log.info({ port: actual, database: database.provider, events: config.REDIS_URL ? "redis" : "in-process" }, "listening");
    startWork();
    return { port: actual };
  }

  /** Stops accepting, lets requests in flight finish, closes WebSockets, then the database. */
  function stop(): Promise<void> {
    stopping ??= (async () => {
      if (http) {
        const server = http;
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        // Pages following a trip fall back to polling another process.
        sharePage.close();
        // Whatever the clients do, nothing outlives the grace period: long-lived streams (SSE) and
        // WebSockets whose client never answers the closing handshake are cut then.
        const force = setTimeout(() => {
          server.closeAllConnections();
          for (const socket of upgraded) socket.destroy();
        }, config.SHUTDOWN_TIMEOUT_MS);
        await disposeWebSockets?.();
        await closed;
        clearTimeout(force);
      }
      await work?.stop();
      await presences.stop();
      await accountChanges.stop();
      await mail.stop();
      await flushPositions();
      outage.stop();
      await yoga.dispose();
      await events.close();
      await database.close();
      log.info({}, "stopped");
    })();
    return stopping;
  }

  return {
    deps,
    fetch: (request: Request) => yoga.fetch(request),
    httpServer,
    start,
    startWork,
    stop,
    flushPositions,
    /** Sends the waves due now (once the process works: see startWork). */
    nudgeDispatcher: () => work?.dispatcher.nudge() ?? Promise.resolve(),
    /** Sends the document reminders due now (once the process works). */
    nudgeReminders: () => work?.reminders.nudge() ?? Promise.resolve(),
    /** Escalates the SOSs due now (once the process works). */
    nudgeEscalation: () => work?.escalation.nudge() ?? Promise.resolve(),
  };
}

export type AppServer = Awaited<ReturnType<typeof buildServer>>;
