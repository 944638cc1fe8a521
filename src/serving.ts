import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { isUploadPath } from "./adapters/uploads.js";
import { attachGraphQLWebSocket } from "./graphql/websocket.js";
import { Admission } from "./http/admission.js";
import { answerClientError } from "./http/client-error.js";
import { failure } from "./http/failure.js";
import { legacyTarget } from "./http/legacy-prefix.js";
import { busyResponse } from "./http/overload.js";
import { GRAPHQL_PATH } from "./http/paths.js";
import { requestIdOf } from "./http/request-id.js";
import { sendAnswer, sendSecured } from "./http/security-headers.js";
import { requestScope } from "./logger.js";
import { METRICS_PATH } from "./metrics/plugin.js";
import type { Pipeline } from "./pipeline.js";
import { SOS_PATHS } from "./rest/routes/sos.js";
import type { Wired } from "./wiring.js";

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
 * Serving over node:http: each request waits its turn (MAX_CONCURRENT_REQUESTS at once), then goes
 * straight to the legacy shim's Node lane or through Yoga's pipeline; WebSockets go to graphql-ws.
 */
export function createServing(wired: Wired, pipeline: Pipeline) {
  const { config, log, events, outage, deps } = wired;
  const { yoga, shim, metrics, identity, isStopping, mask } = pipeline;
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
    const answer = await lane;
    if (isStopping()) answer.headers.connection = "close";
    sendAnswer(answer, res);
    metrics.observeRequest(req.method ?? "", pathname, answer.status, (performance.now() - started) / 1000);
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

  return {
    /** A node:http server for the service's requests, WebSocket upgrades aside. */
    httpServer(): Server {
      const server = createServer(listener);
      // Longer than the app keeps an idle connection (Dart's HttpClient: 15 s), so that the phone
      // closes it first: a server closing it just as a request goes out resets that request.
      server.keepAliveTimeout = KEEP_ALIVE_MS;
      server.on("clientError", answerClientError);
      return server;
    },
    /** GraphQL over WebSocket on a server that listens; answers how to close its connections, and how to cut them. */
    attachWebSockets: (server: Server) =>
      attachGraphQLWebSocket(server, yoga, { identity, pubsub: events.pubsub, log, clock: deps.clock, metrics, database: outage, mask }),
  };
}
