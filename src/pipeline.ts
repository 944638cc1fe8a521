import type { Plugin } from "graphql-yoga";
import { authorizeDocumentRead } from "./domain/drivers/documents.js";
import { DomainError } from "./domain/errors.js";
import { countOutbox } from "./domain/mail/outbox.js";
import { contextFactory } from "./graphql/context.js";
import { createIdentity } from "./graphql/identity.js";
import { errorMask } from "./graphql/mask.js";
import { schema } from "./graphql/schema.js";
import { createGraphQL } from "./graphql/yoga.js";
import { useConsole } from "./http/console.js";
import { useIdempotency } from "./http/idempotency.js";
import { BUSY, busyHeaders } from "./http/overload.js";
import { GRAPHQL_PATH, GRAPHQL_SSE_PATH } from "./http/paths.js";
import { Response } from "./http/response.js";
import { useSharePage } from "./http/share-page.js";
import { HTTP_STATUS } from "./http/status.js";
import { type Refusal, useUploads } from "./http/uploads.js";
import { measureExecution, useMetrics } from "./metrics/plugin.js";
import { Metrics } from "./metrics/registry.js";
import { useApiDocs } from "./rest/reference-page.js";
import { legacyRoutes } from "./rest/routes/index.js";
import { legacyShim } from "./rest/shim.js";
import type { Wired } from "./wiring.js";

const BODY_LIMIT = 1024 * 1024;

/**
 * Every request's way through the service: the GraphQL endpoint and, as Yoga plugins on the same
 * pipeline (same identity, limits, metrics), the legacy `.php` shim, document photos, health
 * checks, the console, the share pages and the API reference.
 */
export function createPipeline(wired: Wired, isStopping: () => boolean) {
  const { config, deps, database, events, outage, log, uploads } = wired;

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

  /** While stopping, a keep-alive connection would outlive its last request and hold the stop up. */
  const closeWhileStopping = (response: Response) => {
    if (isStopping()) response.headers.set("connection", "close");
  };

  async function readiness(): Promise<Response> {
    if (isStopping()) return Response.json({ status: "stopping" }, { status: 503 });
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

  const mask = errorMask(deps.log, outage);
  const shim = legacyShim(legacyRoutes, {
    schema,
    log,
    bodyLimit: BODY_LIMIT,
    multipartLimit: 2 * config.UPLOAD_MAX_BYTES,
    countError: (code) => metrics.countError(code),
    database: outage,
    unsigned: identity.unsignedLegacyCall,
    context: contextFactory(deps, events.pubsub, identity),
    mask,
    measure: (document, context) => measureExecution(metrics, document, undefined, context),
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
        clock: deps.clock,
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

  return { yoga, shim, metrics, identity, sharePage, isStopping, mask };
}

export type Pipeline = ReturnType<typeof createPipeline>;
