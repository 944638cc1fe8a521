import { GraphQLError } from "graphql";
import { createYoga, type PubSub } from "graphql-yoga";
import type { Deps } from "../domain/deps.js";
import { DomainError } from "../domain/errors.js";
import type { EventMap } from "../domain/events.js";
import type { ParsedOperation } from "../rest/route.js";
import { contextFactory } from "./context.js";
import { CALLER_HEADER, type Transport } from "./identity.js";
import { schema } from "./schema.js";

export function createGraphQL(deps: Deps, pubsub: PubSub<EventMap>) {
  const buildContext = contextFactory(deps, pubsub);
  const yoga = createYoga<Transport>({
    schema,
    graphqlEndpoint: "/graphql",
    landingPage: false,
    graphiql: { subscriptionsProtocol: "WS", title: "Ride-hailing GraphQL" },
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
          return new GraphQLError(original.message, { extensions: { code: original.code, http: { status: original.status } } });
        }
        deps.log.error({ err: original }, "unexpected error in a GraphQL operation");
        return new GraphQLError("Error interno del servidor", { extensions: { code: "INTERNAL", http: { status: 500 } } });
      },
    },
  });

  /** Runs a pre-parsed operation through the same plugins and context factory as an HTTP request. */
  async function executeOperation(operation: ParsedOperation, variables: Record<string, unknown>, callerId?: number) {
    const request = new Request("http://localhost/graphql", {
      headers: callerId === undefined ? {} : { [CALLER_HEADER]: String(callerId) },
    });
    const enveloped = yoga.getEnveloped({ request, legacy: true, params: { variables } } as never);
    return enveloped.execute({
      schema: enveloped.schema,
      document: operation.document,
      variableValues: variables,
      contextValue: await enveloped.contextFactory(),
    });
  }

  return { yoga, executeOperation };
}
