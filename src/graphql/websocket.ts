import type { IncomingMessage, Server } from "node:http";
import { getOperationAST, GraphQLError, Kind, type OperationDefinitionNode } from "graphql";
import type { PubSub } from "graphql-yoga";
import type { SubscribePayload } from "graphql-ws";
import { visibilityKey, type Actor } from "../domain/actor.js";
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
import { Connection, DELEGATED, serveTransportWs, type Operation, type Outcome } from "./transport-ws.js";
import type { GraphQLServer } from "./yoga.js";

/**
 * Subscriptions whose events are picked by their arguments alone, shared between callers of the
 * same visibility. Not `notifications`: it follows whoever connects, and two administrators share
 * a visibility key but not their notifications.
 */
const SHAREABLE = new Set(["tripUpdated", "driverLocation", "tripRequests"]);

function shareable(operation: OperationDefinitionNode) {
  return (
    operation.operation === "subscription" &&
    operation.selectionSet.selections.every((selection) => selection.kind === Kind.FIELD && SHAREABLE.has(selection.name.value))
  );
}

/**
 * What the client got wrong while its operation was prepared (a syntax error, a document over
 * graphql-armor's limits, a refusal of the domain) as the errors of that operation alone: thrown,
 * it would close the connection (4500) and every other subscription on it. Anything else is the
 * server's and is thrown on.
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

// A generated id's text is a rope of a dozen pieces (randomUUID), eight times the heap of the same
// text in one piece; a connection keeps its id for as long as it stays open.
const flat = (text: string) => Buffer.from(text, "latin1").toString("latin1");

const sessionOf = (socket: Socket) => (socket.actor?.kind === "member" ? socket.actor.session : null);

/** A connection, with who opened it: what each of its operations runs as. */
class Socket extends Connection {
  /** The upgrade request, until connection_init has read the caller's address from it. */
  request: IncomingMessage | undefined = undefined;
  requestId: string | undefined = undefined;
  actor: Actor | undefined = undefined;

  override within<T>(work: () => T): T {
    return this.requestId ? requestScope.run({ request_id: this.requestId }, work) : work();
  }
}

export interface WebSocketOptions {
  identity: Identity;
  pubsub: PubSub<EventMap>;
  log: Logger;
  clock: Clock;
  metrics: Pick<Metrics, "countSockets" | "subscriptionStarted" | "subscriptionEnded">;
  /** Counts the connections and operations turned away because the database cannot serve now. */
  database: DatabaseOutage;
  /** What a failure while an operation streams may show its client. */
  mask: (error: unknown) => GraphQLError;
}

/**
 * GraphQL over WebSocket on the HTTP server's /graphql path (transport-ws.ts), running every
 * operation through Yoga's pipeline (same plugins, same context factory). The token in the
 * connection parameters is checked once, at connection_init; a connection whose session is revoked
 * (on any process) or expires is closed (4403), which graphql-ws clients do not retry with the
 * same token; one that cannot be checked because the database cannot serve now is closed with
 * 1013, which they retry. An operation the database cannot serve ends with a SERVICE_UNAVAILABLE
 * error. Identical subscriptions of callers who see the same things run once per event for all
 * their sockets (see fan-out.ts). Returns the function that closes every socket (code 1001), every
 * shared subscription and the WebSocket server, and the one that cuts the sockets still open.
 */
export function attachGraphQLWebSocket(
  http: Server,
  yoga: GraphQLServer,
  { identity, pubsub, log, clock, metrics, database, mask }: WebSocketOptions,
) {
  const end = (socket: Socket) => socket.close(FORBIDDEN, "Sesión terminada");
  const fanOut = createFanOut(log, mask);

  const { wss, sockets, close, terminate } = serveTransportWs(http, GRAPHQL_PATH, Socket, {
    log,
    mask,
    // A token that does not count refuses the connection (4403); no token connects anonymously.
    async connect(socket, connectionParams) {
      const actor = await identity.actor({ connectionParams, req: socket.request }).catch((error: unknown) => {
        if (database.report("requests", error)) return null;
        throw error;
      });
      // Its address was all it was needed for: the socket need not keep the headers and all.
      socket.request = undefined;
      if (actor === null) {
        socket.close(TRY_AGAIN_LATER, "Intenta de nuevo en unos segundos");
        return false;
      }
      if (actor.kind === "anonymous" && actor.refused) return false;
      socket.actor = actor;
      return true;
    },
    start: (operation, payload) => prepare(operation, payload).catch(clientErrors),
    ended: (operation) => metrics.subscriptionEnded(operation.field!),
    sweep(sockets) {
      const now = clock.now();
      for (const socket of sockets) {
        const session = sessionOf(socket);
        if (session && session.expiresAt <= now) end(socket);
      }
    },
  });
  metrics.countSockets(() => sockets.size);
  /** Each connection's request id, decided on its upgrade request, then kept by its socket. */
  const requestIds = new WeakMap<IncomingMessage, string>();
  wss.on("headers", (headers, req) => {
    const id = flat(requestIdOf(req));
    requestIds.set(req, id);
    headers.push(`X-Request-Id: ${id}`);
  });
  wss.on("connection", (ws, req) => {
    const socket = ws as Socket;
    socket.request = req;
    socket.requestId = requestIds.get(req);
  });

  /** A `subscribe`: shared, run here, or refused with its errors. */
  async function prepare(operation: Operation, payload: SubscribePayload): Promise<Outcome> {
    // connect set it before acknowledging the connection, and nothing is subscribed before that.
    const actor = (operation.socket as Socket).actor!;
    // Joiners skip parsing and validation (the same text passed them) and the subscribe resolver with
    // its authorization check: sound only because callers with the same visibility key would get
    // exactly the same answer, and the same events.
    const key = JSON.stringify([payload.query, payload.operationName ?? null, payload.variables ?? null, visibilityKey(actor)]);
    const joined = await fanOut.join(key, operation);
    if (joined) return counted(operation, operation.field!, joined);

    const transport: Transport = { actor };
    const enveloped = yoga.getEnveloped({ ...transport, params: payload } as never);
    const document = enveloped.parse(payload.query);
    const errors = enveloped.validate(enveloped.schema, document);
    if (errors.length > 0) return errors;
    const definition = getOperationAST(document, payload.operationName);
    if (!definition) return [new GraphQLError("El documento no tiene una operación que ejecutar con ese nombre")];
    const args = { schema: enveloped.schema, document, operationName: payload.operationName, variableValues: payload.variables };
    if (definition.operation !== "subscription") return enveloped.execute({ ...args, contextValue: await enveloped.contextFactory() });
    const field = subscriptionField(document, payload.operationName);
    if (shareable(definition)) {
      const outcome = await fanOut.open(key, field, operation, async () =>
        enveloped.subscribe({ ...args, contextValue: await enveloped.contextFactory() }),
      );
      return counted(operation, field, outcome);
    }
    return counted(operation, field, await enveloped.subscribe({ ...args, contextValue: await enveloped.contextFactory() }));
  }

  /**
   * A subscription that streams counts in the metrics until it ends (see `ended`); one stopped
   * while it was prepared never counts.
   */
  function counted(operation: Operation, field: string, outcome: Outcome): Outcome {
    const streams = outcome === DELEGATED || (typeof outcome === "object" && Symbol.asyncIterator in outcome);
    operation.field = streams && operation.live ? field : undefined;
    if (operation.field !== undefined) metrics.subscriptionStarted(field);
    return outcome;
  }

  const revocations = pubsub.subscribe("sesion_revocada");
  void (async () => {
    for await (const { sesiones } of revocations) {
      const revoked = new Set(sesiones);
      for (const socket of sockets) {
        const session = sessionOf(socket);
        if (session && revoked.has(session.id)) end(socket);
      }
    }
  })().catch((error: unknown) => log.error({ err: error }, "session revocations stopped"));

  return {
    close: async () => {
      await revocations.return?.();
      await close();
      await fanOut.close();
    },
    terminate,
  };
}
