import type { Server } from "node:http";
import { getOperationAST, GraphQLError, Kind, type DocumentNode, type ExecutionArgs, type ExecutionResult } from "graphql";
import { isAsyncIterable, type PubSub } from "graphql-yoga";
import { useServer } from "graphql-ws/use/ws";
import { WebSocketServer, type WebSocket } from "ws";
import type { SubscribePayload } from "graphql-ws";
import { visibilityKey } from "../domain/actor.js";
import { requestIdOf } from "../http/request-id.js";
import { requestScope } from "../logger.js";
import type { Clock, Logger } from "../domain/deps.js";
import { DomainError } from "../domain/errors.js";
import type { EventMap } from "../domain/events.js";
import type { DatabaseOutage } from "../domain/outage.js";
import { subscriptionField } from "../metrics/labels.js";
import type { Metrics } from "../metrics/registry.js";
import { createFanOut } from "./fan-out.js";
import type { Identity, Transport } from "./identity.js";
import { GRAPHQL_PATH } from "../http/paths.js";
import type { GraphQLServer } from "./yoga.js";

interface Enveloped {
  execute: (args: ExecutionArgs) => Promise<ExecutionResult>;
  subscribe: (args: ExecutionArgs) => Promise<ExecutionResult | AsyncIterable<ExecutionResult>>;
  /** The connection's request id, for the log lines of the operation. */
  request_id?: string;
}

/** Runs `work` as part of the request `request_id` names, when there is one. */
const scoped = <T>(request_id: string | undefined, work: () => T): T => (request_id ? requestScope.run({ request_id }, work) : work());

/**
 * Subscriptions whose events are picked by their arguments alone, shared between callers of the
 * same visibility. Not `notifications`: it follows whoever connects, and two administrators share
 * a visibility key but not their notifications.
 */
const SHAREABLE = new Set(["tripUpdated", "driverLocation", "tripRequests"]);

function shareable(document: DocumentNode, operationName?: string | null) {
  const operation = getOperationAST(document, operationName);
  return (
    operation?.operation === "subscription" &&
    operation.selectionSet.selections.every((selection) => selection.kind === Kind.FIELD && SHAREABLE.has(selection.name.value))
  );
}

/**
 * What the client got wrong while its operation was prepared (a syntax error, a document over
 * graphql-armor's limits, a refusal of the domain) as the errors of that operation alone: thrown
 * from onSubscribe, it would close the connection (4500) and every other subscription on it.
 * Anything else is the server's and is thrown on.
 */
function clientErrors(error: unknown): GraphQLError[] {
  if (error instanceof GraphQLError && (!error.originalError || error.originalError instanceof GraphQLError)) return [error];
  if (error instanceof DomainError) return [new GraphQLError(error.message, { extensions: { code: error.code } })];
  throw error;
}

// graphql-ws's own code for a refused connection; clients do not retry it.
const FORBIDDEN = 4403;
// WebSocket's "try again later" (RFC 6455, 1013), which graphql-ws clients retry.
const TRY_AGAIN_LATER = 1013;
// setTimeout's longest delay; a session that lasts longer is checked again then.
const LONGEST_TIMER_MS = 2 ** 31 - 1;

export interface WebSocketOptions {
  identity: Identity;
  pubsub: PubSub<EventMap>;
  log: Logger;
  clock: Clock;
  metrics: Pick<Metrics, "socketOpened" | "subscriptionStarted">;
  /** Counts the connections and operations turned away because the database cannot serve now. */
  database: DatabaseOutage;
}

/**
 * graphql-ws on the HTTP server's /graphql path, running every operation through Yoga's pipeline
 * (same plugins, same context factory). The token in the connection parameters is checked once,
 * at connection_init; a connection whose session is revoked (on any process) or expires is closed
 * (4403), which graphql-ws clients do not retry with the same token; one that cannot be checked
 * because the database cannot serve now is closed with 1013, which they retry. An operation the
 * database cannot serve ends with a SERVICE_UNAVAILABLE error. Identical subscriptions of
 * callers who see the same things run once per event for all their sockets (see fan-out.ts).
 * Returns the function that closes every socket (code 1001), every shared subscription and the
 * WebSocket server.
 */
export function attachGraphQLWebSocket(
  http: Server,
  yoga: GraphQLServer,
  { identity, pubsub, log, clock, metrics, database }: WebSocketOptions,
) {
  const wss = new WebSocketServer({ server: http, path: GRAPHQL_PATH });
  wss.on("connection", (socket) => socket.once("close", metrics.socketOpened()));
  /**
   * What tells the metrics that each running subscription ended, by socket and id: counted here,
   * where shared ones have a subscriber each, rather than where they execute.
   */
  const live = new WeakMap<object, Map<string, () => void>>();
  /** Each connection's request id, decided on its upgrade request, then kept by socket. */
  const requestIds = new WeakMap<object, string>();
  wss.on("headers", (headers, req) => {
    const id = requestIdOf(req);
    requestIds.set(req, id);
    headers.push(`X-Request-Id: ${id}`);
  });
  const actors = new WeakMap<WebSocket, Transport["actor"]>();
  /** Sockets opened with a session token: the session, and the timer that closes them when it expires. */
  const sessions = new Map<WebSocket, { id: number; expiry?: NodeJS.Timeout }>();
  const end = (socket: WebSocket) => socket.close(FORBIDDEN, "Sesión terminada");
  const closeAtExpiry = (socket: WebSocket, session: { id: number; expiry?: NodeJS.Timeout }, expiresAt: Date) => {
    const wait = expiresAt.getTime() - clock.now().getTime();
    if (wait <= 0) return end(socket);
    session.expiry = setTimeout(() => closeAtExpiry(socket, session, expiresAt), Math.min(wait, LONGEST_TIMER_MS)).unref();
  };

  const fanOut = createFanOut<Omit<ExecutionArgs, "contextValue" | "rootValue">>(log);

  const server = useServer(
    {
      // A token that does not count refuses the connection (4403); no token connects anonymously.
      onConnect: async (ctx) => {
        const request_id = requestIds.get(ctx.extra.request);
        if (request_id) requestIds.set(ctx.extra.socket, request_id);
        const actor = await scoped(request_id, () =>
          identity.actor({ connectionParams: ctx.connectionParams ?? {}, req: ctx.extra.request }),
        ).catch((error: unknown) => {
          if (database.report("requests", error)) return null;
          throw error;
        });
        // graphql-ws would keep the upgrade request, headers and all, for as long as the socket; its
        // address was all it was needed for, and nothing reads it after this.
        (ctx.extra as { request?: unknown }).request = undefined;
        if (actor === null) {
          ctx.extra.socket.close(TRY_AGAIN_LATER, "Intenta de nuevo en unos segundos");
          return false;
        }
        if (actor.kind === "anonymous" && actor.refused) return false;
        actors.set(ctx.extra.socket, actor);
        if (actor.kind === "member" && actor.session) {
          const session = { id: actor.session.id };
          sessions.set(ctx.extra.socket, session);
          closeAtExpiry(ctx.extra.socket, session, actor.session.expiresAt);
        }
        return true;
      },
      onOperation: (ctx, id, _payload, args, result) => {
        if (!isAsyncIterable(result)) return;
        live.set(
          ctx,
          (live.get(ctx) ?? new Map()).set(id, metrics.subscriptionStarted(subscriptionField(args.document, args.operationName))),
        );
      },
      // graphql-ws calls it however a subscription ends: completed by either side, or its socket closed.
      onComplete: (ctx, id) => {
        live.get(ctx)?.get(id)?.();
        live.get(ctx)?.delete(id);
      },
      onClose: (ctx) => {
        clearTimeout(sessions.get(ctx.extra.socket)?.expiry);
        sessions.delete(ctx.extra.socket);
      },
      execute: (args: ExecutionArgs) => scoped((args.rootValue as Enveloped).request_id, () => (args.rootValue as Enveloped).execute(args)),
      subscribe: (args: ExecutionArgs) =>
        scoped((args.rootValue as Enveloped).request_id, () => (args.rootValue as Enveloped).subscribe(args)),
      onSubscribe: (ctx, id, payload) =>
        scoped(requestIds.get(ctx.extra.socket), () => prepare(ctx.extra.socket, ctx.connectionParams, id, payload)),
    },
    wss,
  );

  /** What graphql-ws runs for a `subscribe` message: shared, prepared here, or refused with its errors. */
  async function prepare(socket: WebSocket, connectionParams: Record<string, unknown> | undefined, id: string, payload: SubscribePayload) {
    // onConnect set it before acknowledging the connection, and nothing is subscribed before that.
    const actor = actors.get(socket)!;
    // Joiners skip parsing and validation (the same text passed them) and the subscribe resolver with
    // its authorization check: sound only because callers with the same visibility key would get
    // exactly the same answer, and the same events.
    const key = JSON.stringify([payload.query, payload.operationName ?? null, payload.variables ?? null, visibilityKey(actor)]);
    const joined = await fanOut.join(key, socket, id);
    // No Yoga context for a joiner: the shared source runs in its first subscriber's.
    if (joined) return { ...joined.args, rootValue: { subscribe: () => joined.listener } };

    try {
      const transport: Transport = { connectionParams: connectionParams ?? {}, actor };
      const enveloped = yoga.getEnveloped({ ...transport, params: payload } as never);
      const document = enveloped.parse(payload.query);
      const errors = enveloped.validate(enveloped.schema, document);
      if (errors.length > 0) return errors;
      const args = { schema: enveloped.schema, document, operationName: payload.operationName, variableValues: payload.variables };
      if (!shareable(document, payload.operationName)) {
        const rootValue: Enveloped = { execute: enveloped.execute, subscribe: enveloped.subscribe, request_id: requestIds.get(socket) };
        return { ...args, contextValue: await enveloped.contextFactory(), rootValue };
      }
      const outcome = await fanOut.open(key, args, socket, id, async () =>
        enveloped.subscribe({ ...args, contextValue: await enveloped.contextFactory() }),
      );
      return { ...args, rootValue: { subscribe: () => outcome } };
    } catch (error) {
      return clientErrors(error);
    }
  }

  const revocations = pubsub.subscribe("sesion_revocada");
  void (async () => {
    for await (const { sesiones } of revocations) {
      const revoked = new Set(sesiones);
      for (const [socket, session] of sessions) if (revoked.has(session.id)) end(socket);
    }
  })().catch((error) => log.error({ err: error }, "session revocations stopped"));

  return async () => {
    for (const session of sessions.values()) clearTimeout(session.expiry);
    await revocations.return?.();
    await server.dispose();
    await fanOut.close();
    await new Promise<void>((resolve) => wss.close(() => resolve()));
  };
}
