import type { Server } from "node:http";
import type { ExecutionArgs, ExecutionResult } from "graphql";
import { useServer } from "graphql-ws/use/ws";
import { WebSocketServer } from "ws";
import type { createGraphQL } from "./yoga.js";
import { callerFrom } from "./identity.js";

interface Enveloped {
  execute: (args: ExecutionArgs) => Promise<ExecutionResult>;
  subscribe: (args: ExecutionArgs) => Promise<ExecutionResult>;
}

/**
 * graphql-ws on the HTTP server's /graphql path, running every operation through Yoga's
 * pipeline (same plugins, same context factory) with the connection parameters as transport.
 * Returns the function that closes every socket (code 1001) and the WebSocket server.
 */
export function attachGraphQLWebSocket(http: Server, yoga: ReturnType<typeof createGraphQL>["yoga"]) {
  const wss = new WebSocketServer({ server: http, path: "/graphql" });
  const server = useServer(
    {
      // A bad userId in the connection parameters refuses the connection (4403).
      onConnect: (ctx) => {
        try {
          callerFrom({ connectionParams: ctx.connectionParams });
          return true;
        } catch {
          return false;
        }
      },
      execute: (args: ExecutionArgs) => (args.rootValue as Enveloped).execute(args),
      subscribe: (args: ExecutionArgs) => (args.rootValue as Enveloped).subscribe(args),
      onSubscribe: async (ctx, _id, payload) => {
        const enveloped = yoga.getEnveloped({ connectionParams: ctx.connectionParams ?? {}, params: payload } as never);
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
  return async () => {
    await server.dispose();
    await new Promise<void>((resolve) => wss.close(() => resolve()));
  };
}
