import { GraphQLError } from "graphql";
import { createYoga, type Plugin, type PubSub } from "graphql-yoga";
import type { Deps } from "../domain/deps.js";
import { DomainError } from "../domain/errors.js";
import { HTTP_STATUS } from "../http/status.js";
import type { EventMap } from "../domain/events.js";
import { contextFactory } from "./context.js";
import { corsFor, edgePlugins, type EdgeSettings } from "./edge.js";
import type { Identity, Transport } from "./identity.js";
import { schema } from "./schema.js";
import { useSignInRequired } from "./sign-in.js";

export const GRAPHQL_PATH = "/graphql";

export interface GraphQLOptions {
  identity: Identity;
  edge: EdgeSettings;
  /** The service's other routes (legacy shim, uploads, health), so that every request passes the same plugins. */
  routes: Plugin[];
}

export function createGraphQL(deps: Deps, pubsub: PubSub<EventMap>, { identity, edge, routes }: GraphQLOptions) {
  const buildContext = contextFactory(deps, pubsub, identity);
  return createYoga<Transport>({
    schema,
    graphqlEndpoint: GRAPHQL_PATH,
    landingPage: false,
    graphiql: { subscriptionsProtocol: "WS", title: "Ride-hailing GraphQL" },
    cors: corsFor(edge),
    plugins: [...edgePlugins(GRAPHQL_PATH, edge), useSignInRequired(), ...routes],
    context: (initial) => buildContext(initial),
    logging: {
      debug: (...args) => deps.log.debug({ yoga: args }),
      info: (...args) => deps.log.info({ yoga: args }),
      warn: (...args) => deps.log.warn({ yoga: args }),
      error: (...args) => deps.log.error({ yoga: args }),
    },
    maskedErrors: {
      // GraphQL's own errors (syntax, validation, bad variables) are the client's to read;
      // anything thrown unexpectedly is logged and hidden.
      maskError: (error) => {
        const original = error instanceof GraphQLError ? error.originalError : error;
        if (error instanceof GraphQLError && (!original || original instanceof GraphQLError)) return error;
        // Domain errors outside a typed result (subscriptions, for one) keep their message and code.
        if (original instanceof DomainError) {
          return new GraphQLError(original.message, { extensions: { code: original.code, http: { status: HTTP_STATUS[original.code] } } });
        }
        deps.log.error({ err: original }, "unexpected error in a GraphQL operation");
        return new GraphQLError("Error interno del servidor", { extensions: { code: "INTERNAL", http: { status: 500 } } });
      },
    },
  });
}

export type GraphQLServer = ReturnType<typeof createGraphQL>;
