import type { IncomingMessage, Server } from "node:http";
import type { ExecutionResult, GraphQLError } from "graphql";
import { CloseCode, GRAPHQL_TRANSPORT_WS_PROTOCOL, handleProtocols, MessageType, parseMessage, type SubscribePayload } from "graphql-ws";
import { WebSocket, WebSocketServer } from "ws";
import type { Logger } from "../domain/deps.js";

/**
 * GraphQL over WebSocket (the graphql-transport-ws protocol graphql-ws clients speak:
 * https://github.com/enisdenjo/graphql-ws/blob/master/PROTOCOL.md), served on `ws` with the
 * messages read and checked by graphql-ws itself. Connections stay open for hours by the tens of
 * thousands, so each costs little more than its socket: the socket is the connection (a subclass
 * of ws's WebSocket holding the protocol's state in fields, its handlers shared by all), one timer
 * sweeps every socket for the init deadline and keep-alive pings, and an operation is one object
 * linked into its socket's list. graphql-ws's own server gave each connection with one
 * subscription four times the heap of the socket (bench/fan-out.ts).
 */

// About graphql-ws's defaults, in sweeps of a second: connection_init within 3 to 4 s; a ping every
// 12 s, unanswered by the next one closes the socket.
const SWEEP_MS = 1_000;
const INIT_WAIT_SWEEPS = 4;
const PING_EVERY_SWEEPS = 12;

/** What a `subscribe` turned into, for the protocol to answer. */
export type Outcome =
  /** Refused before running: one `error` message, no `complete`. */
  | readonly GraphQLError[]
  /** A query or mutation, or a subscription answered at once: one `next`, then `complete`. */
  | ExecutionResult
  /** A stream of events: a `next` each, then `complete` (or `error` if it fails). */
  | AsyncIterable<ExecutionResult>
  /** Written by someone else (see fan-out.ts), who ends the operation. */
  | typeof DELEGATED;

export const DELEGATED = Symbol("delegated");

/** Whoever writes a delegated operation's events, told when the operation stops first. */
export interface Writer {
  leave(operation: Operation): void;
}

/** One `subscribe` of a connection, from the message until it completes. */
export class Operation {
  /** The connection's next operation: a connection holds few, in a list threaded through them. */
  following: Operation | undefined = undefined;
  writer: Writer | undefined = undefined;
  iterator: AsyncIterator<ExecutionResult> | undefined = undefined;
  /** The subscription root field, once it streams: what the metrics count it under. */
  field: string | undefined = undefined;

  constructor(
    readonly socket: Connection,
    readonly id: string,
  ) {}

  /** Still the connection's: not completed by either side, its socket not closed. */
  get live(): boolean {
    for (let operation = this.socket.operations; operation; operation = operation.following) if (operation === this) return true;
    return false;
  }

  /** Writes one event, `result` already serialised. */
  next(result: string) {
    this.socket.write(`{"id":${JSON.stringify(this.id)},"type":"${MessageType.Next}","payload":${result}}`);
  }

  /** Ends the operation from the server's side: `complete`, or `error` with `errors`. A stopped one is left alone. */
  end(errors?: readonly GraphQLError[]) {
    if (!this.socket.release(this)) return;
    const id = JSON.stringify(this.id);
    if (errors) this.socket.write(`{"id":${id},"type":"${MessageType.Error}","payload":${JSON.stringify(errors)}}`);
    else this.socket.write(`{"id":${id},"type":"${MessageType.Complete}"}`);
  }

  /** Stops it without a word to the client (its `complete`, or its socket closing). */
  stop() {
    if (this.socket.release(this)) this.letGo();
  }

  /** Lets go of what produces its events: the writer it delegated to, or its own stream. */
  letGo() {
    this.writer?.leave(this);
    const stopped = this.iterator?.return?.();
    stopped?.catch((error: unknown) => this.socket.server.log.error({ err: error }, "a subscription did not stop cleanly"));
  }
}

export interface ProtocolServer<S extends Connection> {
  log: Logger;
  /** connection_init: true acknowledges it, false refuses it (4403), unless `connect` closed the socket itself. */
  connect(socket: S, params: Record<string, unknown>): Promise<boolean>;
  /** subscribe: runs the operation, or refuses it with its errors. */
  start(operation: Operation, payload: SubscribePayload): Promise<Outcome>;
  /** A failure thrown while an operation streams, as its client may read it. */
  mask(error: unknown): GraphQLError;
  /** An operation that had streamed ended. */
  ended(operation: Operation): void;
  /** The open sockets, once a second: the place for deadlines of the server's own (a session's expiry, say). */
  sweep(sockets: Iterable<S>): void;
}

/**
 * One graphql-transport-ws connection. The server that accepted it subclasses this for its own
 * per-connection state, as fields.
 */
export class Connection extends WebSocket {
  // biome-ignore lint/suspicious/noExplicitAny: set by serveTransportWs before the first event, for whichever subclass it serves
  server!: ProtocolServer<any>;
  initialised = false;
  acknowledged = false;
  /** Answered the last ping (or none was sent yet). */
  alive = true;
  /** The sweep it opened at: a small integer, where a time in milliseconds would take a heap number of its own. */
  openedAt = 0;
  operations: Operation | undefined = undefined;

  // ws reports everything through emit: handled here, by the class, rather than by four listeners
  // on every socket.
  // biome-ignore lint/suspicious/noExplicitAny: EventEmitter's own signature
  override emit(event: string | symbol, ...args: any[]): boolean {
    switch (event) {
      case "message":
        this.within(() => receive(this, String(args[0]))).catch((error: unknown) => {
          this.server.log.error({ err: error }, "a graphql-ws message could not be handled");
          if (this.readyState === WebSocket.OPEN) this.close(CloseCode.InternalServerError, "Error interno del servidor");
        });
        return true;
      case "pong":
        this.alive = true;
        return true;
      case "close":
        for (let operation = this.operations; operation; operation = this.operations) operation.stop();
        break;
      case "error":
        // ws closes the socket itself after an error (a malformed frame, say).
        this.server.log.debug({ err: args[0] }, "graphql-ws socket error");
        return true;
    }
    return super.emit(event, ...args);
  }

  /** Runs `work` in whatever scope the connection's work belongs to (its request's, say). */
  within<T>(work: () => T): T {
    return work();
  }

  write(text: string) {
    if (this.readyState === WebSocket.OPEN) this.send(text);
  }

  /** Takes `operation` off the list; false when it was not there (already ended or stopped). */
  release(operation: Operation): boolean {
    if (this.operations === operation) this.operations = operation.following;
    else {
      let before = this.operations;
      while (before && before.following !== operation) before = before.following;
      if (!before) return false;
      before.following = operation.following;
    }
    if (operation.field !== undefined) this.server.ended(operation);
    return true;
  }

  find(id: string): Operation | undefined {
    for (let operation = this.operations; operation; operation = operation.following) if (operation.id === id) return operation;
    return undefined;
  }
}

async function receive(socket: Connection, data: string) {
  let message: ReturnType<typeof parseMessage>;
  try {
    message = parseMessage(data);
  } catch {
    return socket.close(CloseCode.BadRequest, "Mensaje no válido");
  }
  switch (message.type) {
    case MessageType.ConnectionInit: {
      if (socket.initialised) return socket.close(CloseCode.TooManyInitialisationRequests, "Demasiadas solicitudes de inicio");
      socket.initialised = true;
      const permitted = await socket.server.connect(socket, message.payload ?? {});
      if (socket.readyState !== WebSocket.OPEN) return;
      if (!permitted) return socket.close(CloseCode.Forbidden, "Prohibido");
      socket.acknowledged = true;
      return socket.write(`{"type":"${MessageType.ConnectionAck}"}`);
    }
    case MessageType.Ping:
      return socket.write(
        JSON.stringify(message.payload ? { type: MessageType.Pong, payload: message.payload } : { type: MessageType.Pong }),
      );
    case MessageType.Pong:
      return;
    case MessageType.Subscribe: {
      if (!socket.acknowledged) return socket.close(CloseCode.Unauthorized, "No autorizado");
      if (socket.find(message.id)) return socket.close(CloseCode.SubscriberAlreadyExists, `Ya hay una suscripción ${message.id}`);
      const operation = new Operation(socket, message.id);
      operation.following = socket.operations;
      socket.operations = operation;
      return run(operation, await socket.server.start(operation, message.payload));
    }
    case MessageType.Complete:
      return socket.find(message.id)?.stop();
    default:
      // connection_ack, next and error are the server's to send.
      return socket.close(CloseCode.BadRequest, `Mensaje inesperado: ${message.type}`);
  }
}

/** Answers what `subscribe` turned into; an operation stopped meanwhile lets go of it instead. */
async function run(operation: Operation, outcome: Outcome) {
  if (outcome === DELEGATED) {
    if (!operation.live) operation.letGo();
    return;
  }
  if (Array.isArray(outcome)) return operation.end(outcome as readonly GraphQLError[]);
  if (!(Symbol.asyncIterator in (outcome as object))) {
    if (!operation.live) return;
    operation.next(JSON.stringify(outcome));
    return operation.end();
  }
  const iterator = (outcome as AsyncIterable<ExecutionResult>)[Symbol.asyncIterator]();
  operation.iterator = iterator;
  if (!operation.live) return operation.letGo();
  try {
    for (let step = await iterator.next(); !step.done && operation.live; step = await iterator.next()) {
      operation.next(JSON.stringify(step.value));
    }
    operation.end();
  } catch (error) {
    if (operation.live) operation.end([operation.socket.server.mask(error)]);
  }
}

/**
 * Serves graphql-transport-ws on `path` of `http` with connections of class `Socket`, sweeping them
 * every `sweepMs`. Returns the server, its open sockets, the function that closes every connection
 * (1001) and stops the sweep, and the one that cuts the connections whose clients never answered.
 */
export function serveTransportWs<T extends typeof Connection>(
  http: Server,
  path: string,
  Socket: T,
  server: ProtocolServer<InstanceType<T>>,
  sweepMs = SWEEP_MS,
) {
  const wss = new WebSocketServer<T, typeof IncomingMessage>({ server: http, path, WebSocket: Socket, handleProtocols });
  const sockets = wss.clients as Set<InstanceType<T>>;
  let sweeps = 0;
  wss.on("connection", (socket) => {
    socket.server = server;
    socket.openedAt = sweeps;
    if (socket.protocol !== GRAPHQL_TRANSPORT_WS_PROTOCOL) socket.close(CloseCode.SubprotocolNotAcceptable, "Subprotocolo no aceptado");
  });

  const sweep = setInterval(() => {
    const pinging = ++sweeps % PING_EVERY_SWEEPS;
    server.sweep(sockets);
    for (const socket of sockets) {
      if (socket.readyState !== WebSocket.OPEN) continue;
      if (!socket.initialised && sweeps - socket.openedAt >= INIT_WAIT_SWEEPS) {
        socket.close(CloseCode.ConnectionInitialisationTimeout, "Tiempo de inicio agotado");
        continue;
      }
      // Each sweep pings the sockets opened at a twelfth of the sweeps, so that thousands of pings never leave in one turn.
      if (socket.openedAt % PING_EVERY_SWEEPS !== pinging) continue;
      if (!socket.alive) socket.terminate();
      else {
        socket.alive = false;
        socket.ping();
      }
    }
  }, sweepMs).unref();

  return {
    wss,
    sockets,
    close: () =>
      new Promise<void>((resolve) => {
        clearInterval(sweep);
        for (const socket of wss.clients) socket.close(1001, "El servidor se detiene");
        wss.close(() => resolve());
      }),
    terminate: () => {
      for (const socket of wss.clients) socket.terminate();
    },
  };
}
