import type { Server } from "node:http";
import type { ExecutionArgs, ExecutionResult } from "graphql";
import type { PubSub } from "graphql-yoga";
import { useServer } from "graphql-ws/use/ws";
import { WebSocketServer, type WebSocket } from "ws";
import type { Clock, Logger } from "../domain/deps.js";
import type { EventMap } from "../domain/events.js";
import type { Identity, Transport } from "./identity.js";
import { GRAPHQL_PATH, type GraphQLServer } from "./yoga.js";

interface Enveloped {
  execute: (args: ExecutionArgs) => Promise<ExecutionResult>;
  subscribe: (args: ExecutionArgs) => Promise<ExecutionResult>;
}

// graphql-ws's own code for a refused connection; clients do not retry it.
const FORBIDDEN = 4403;
// setTimeout's longest delay; a session that lasts longer is checked again then.
const LONGEST_TIMER_MS = 2 ** 31 - 1;

export interface WebSocketOptions {
  identity: Identity;
  pubsub: PubSub<EventMap>;
  log: Logger;
  clock: Clock;
}

/**
 * graphql-ws on the HTTP server's /graphql path, running every operation through Yoga's pipeline
 * (same plugins, same context factory). The token in the connection parameters is checked once,
 * at connection_init; a connection whose session is revoked (on any process) or expires is closed
 * (4403), which graphql-ws clients do not retry with the same token.
 * Returns the function that closes every socket (code 1001) and the WebSocket server.
 */
export function attachGraphQLWebSocket(http: Server, yoga: GraphQLServer, { identity, pubsub, log, clock }: WebSocketOptions) {
  const wss = new WebSocketServer({ server: http, path: GRAPHQL_PATH });
  const actors = new WeakMap<WebSocket, Transport["actor"]>();
  /** Sockets opened with a session token: the session, and the timer that closes them when it expires. */
  const sessions = new Map<WebSocket, { id: number; expiry?: NodeJS.Timeout }>();
  const end = (socket: WebSocket) => socket.close(FORBIDDEN, "Sesión terminada");
  const closeAtExpiry = (socket: WebSocket, session: { id: number; expiry?: NodeJS.Timeout }, expiresAt: Date) => {
    const wait = expiresAt.getTime() - clock.now().getTime();
    if (wait <= 0) return end(socket);
    session.expiry = setTimeout(() => closeAtExpiry(socket, session, expiresAt), Math.min(wait, LONGEST_TIMER_MS)).unref();
  };

  const server = useServer(
    {
      // A token that does not count refuses the connection (4403); no token connects anonymously.
      onConnect: async (ctx) => {
        const actor = await identity.actor({ connectionParams: ctx.connectionParams ?? {}, req: ctx.extra.request });
        if (actor.kind === "anonymous" && actor.refused) return false;
        actors.set(ctx.extra.socket, actor);
        if (actor.kind === "member" && actor.session) {
          const session = { id: actor.session.id };
          sessions.set(ctx.extra.socket, session);
          closeAtExpiry(ctx.extra.socket, session, actor.session.expiresAt);
        }
        return true;
      },
      onClose: (ctx) => {
        clearTimeout(sessions.get(ctx.extra.socket)?.expiry);
        sessions.delete(ctx.extra.socket);
      },
      execute: (args: ExecutionArgs) => (args.rootValue as Enveloped).execute(args),
      subscribe: (args: ExecutionArgs) => (args.rootValue as Enveloped).subscribe(args),
      onSubscribe: async (ctx, _id, payload) => {
        const transport: Transport = { connectionParams: ctx.connectionParams ?? {}, req: ctx.extra.request, actor: actors.get(ctx.extra.socket) };
        const enveloped = yoga.getEnveloped({ ...transport, params: payload } as never);
        const document = enveloped.parse(payload.query);
        const errors = enveloped.validate(enveloped.schema, document);
        if (errors.length > 0) return errors;
        return {
          schema: enveloped.schema,
          document,
          operationName: payload.operationName,
          variableValues: payload.variables,
          contextValue: await enveloped.contextFactory(),
          rootValue: { execute: enveloped.execute, subscribe: enveloped.subscribe },
        };
      },
    },
    wss,
  );

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
    await new Promise<void>((resolve) => wss.close(() => resolve()));
  };
}
