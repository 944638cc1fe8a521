import { GraphQLError, Kind, type DocumentNode, type ExecutionResult } from "graphql";
import { createYoga, isAsyncIterable, type Plugin, type PubSub, type YogaServer } from "graphql-yoga";
import { useGraphQLSSE } from "@graphql-yoga/plugin-graphql-sse";
import { renderGraphiQL } from "@graphql-yoga/render-graphiql";
import type { Deps, Logger } from "../domain/deps.js";
import { DomainError } from "../domain/errors.js";
import { isUnavailable } from "../db/client.js";
import type { DatabaseOutage } from "../domain/outage.js";
import { graphqlFailure } from "../http/failure.js";
import { GRAPHQL_PATH, GRAPHQL_SSE_PATH } from "../http/paths.js";
import { busyResponse, isBusyError } from "../http/overload.js";
import type { EventMap } from "../domain/events.js";
import { contextFactory } from "./context.js";
import { corsFor, edgePlugins, type EdgeSettings } from "./edge.js";
import { withJoinedHooks } from "./joined-hooks.js";
import { errorMask } from "./mask.js";
import type { Identity, Transport } from "./identity.js";
import { schema } from "./schema.js";
import { useSignInRequired } from "./sign-in.js";

/** Whether `error`, or what a GraphQL error wraps, passes `test`. */
const wraps = (test: (error: unknown) => boolean) => (error: unknown) =>
  test(error) || (error instanceof GraphQLError && test(error.originalError));
const isRefusal = wraps((error) => error instanceof DomainError);

type Outcome = ExecutionResult | AsyncIterable<ExecutionResult>;

/** A result without the `http` extension of its errors, which is for the server alone. */
function withoutHttp<T extends { errors?: readonly GraphQLError[] }>(result: T): T {
  if (!result.errors?.some((error) => error.extensions.http)) return result;
  const errors = result.errors.map((error) => {
    const { http: _http, ...extensions } = error.extensions;
    return new GraphQLError(error.message, {
      source: error.source,
      positions: error.positions,
      path: error.path,
      originalError: error.originalError,
      extensions,
    });
  });
  return { ...result, errors };
}

/** What parse hands on when the document does not parse: nothing to run, the errors come with the result. */
const NO_OPERATION: DocumentNode = { kind: Kind.DOCUMENT, definitions: [] };

/**
 * Yoga's graphql-sse plugin, with what it gets wrong about errors put right. graphql-sse takes a
 * result without `data` (a refusal before execution, a document that does not validate) for
 * execution arguments and answers 400 "Unable to detect operation AST"; a document that does not
 * parse escapes as a 500 with its stack. Here each becomes the operation's result, with `data`
 * present but undefined (so that graphql-sse knows it for a result, and JSON leaves it out): a
 * `next` event with the errors, then `complete`, as on GRAPHQL_PATH. Anything thrown anyway is
 * answered 503 when the database cannot serve now, otherwise logged and answered 500 without the
 * stack. Errors leave out the HTTP status and headers they carry for Yoga, as Yoga's own answers do.
 */
function useGraphQLOverSSE(endpoint: string, log: Logger): Plugin {
  const plugin = useGraphQLSSE({ endpoint, onNext: (_ctx, _req, result) => withoutHttp(result) });
  const asResult = (outcome: Outcome): Outcome =>
    isAsyncIterable(outcome) || "data" in outcome ? outcome : { data: undefined, ...outcome };
  const getEnveloped = (yoga: YogaServer<Record<string, unknown>, Record<string, unknown>>) => (context: Record<string, unknown>) => {
    const enveloped = yoga.getEnveloped(context);
    /** Why this request's operation will not run, found by parse or validate and answered by execute or subscribe. */
    let refused: readonly GraphQLError[] | null = null;
    const run =
      (perform: (args: never) => Outcome | Promise<Outcome>) =>
      async (args: never): Promise<Outcome> =>
        refused ? { data: undefined, errors: refused } : asResult(await perform(args));
    return {
      ...enveloped,
      parse: (source: string) => {
        try {
          return enveloped.parse(source);
        } catch (error) {
          if (!(error instanceof GraphQLError)) throw error;
          refused = [error];
          return NO_OPERATION;
        }
      },
      validate: (schema: unknown, document: DocumentNode) => {
        if (!refused) {
          const errors = enveloped.validate(schema, document);
          if (errors.length > 0) refused = errors;
        }
        return [];
      },
      execute: run(enveloped.execute as never),
      subscribe: run(enveloped.subscribe as never),
    };
  };
  return {
    ...plugin,
    onYogaInit({ yoga }) {
      const proxy = new Proxy(yoga, {
        get: (target, key) => (key === "getEnveloped" ? getEnveloped(target as never) : Reflect.get(target, key)),
      });
      return plugin.onYogaInit?.({ yoga: proxy });
    },
    onRequest(payload) {
      // The plugin serves only paths ending in its endpoint; every other request passes on at once.
      if (!payload.url.pathname.endsWith(endpoint)) return;
      return (async () => {
        try {
          await plugin.onRequest?.(payload);
        } catch (error) {
          // Turned away as its context was made (a database that cannot serve now), already masked and counted.
          if (isBusyError(error)) return payload.endResponse(busyResponse(true));
          log.error({ err: error }, "unexpected error in a GraphQL over SSE request");
          payload.endResponse(graphqlFailure(500, "Error interno del servidor", "INTERNAL"));
        }
      })();
    },
  };
}

export interface GraphQLOptions {
  identity: Identity;
  edge: EdgeSettings;
  /** GraphiQL in the browser at the GraphQL endpoint. */
  graphiql: boolean;
  /** The service's other routes (legacy shim, uploads, health), so that every request passes the same plugins. */
  routes: Plugin[];
  /** Serves /metrics and measures every request and operation (src/metrics). */
  metrics: Plugin;
  /** Counts the operations answered 503 because the database cannot serve now. */
  database: DatabaseOutage;
}

export function createGraphQL(
  deps: Deps,
  pubsub: PubSub<EventMap>,
  { identity, edge, graphiql, routes, metrics, database }: GraphQLOptions,
) {
  const buildContext = contextFactory(deps, pubsub, identity);
  // The page carries GraphiQL's scripts and styles inline (about 9 MB), so it loads with no network
  // access; it never changes, so it is built once.
  let graphiqlPage: string | undefined;
  return createYoga<Transport>({
    schema,
    graphqlEndpoint: GRAPHQL_PATH,
    landingPage: false,
    graphiql: graphiql && { subscriptionsProtocol: "WS", title: "Ride-hailing GraphQL" },
    renderGraphiQL: (options) => (graphiqlPage ??= renderGraphiQL(options)),
    cors: corsFor(edge),
    plugins: withJoinedHooks([
      ...edgePlugins([GRAPHQL_PATH, GRAPHQL_SSE_PATH], edge, metrics),
      useSignInRequired(),
      useGraphQLOverSSE(GRAPHQL_SSE_PATH, deps.log),
      ...routes,
    ]),
    context: (initial) => buildContext(initial),
    logging: {
      debug: (...args) => deps.log.debug({ yoga: args }),
      info: (...args) => deps.log.info({ yoga: args }),
      warn: (...args) => deps.log.warn({ yoga: args }),
      // Yoga logs every error it masks: a refusal the caller caused is not the service failing, and
      // a database that cannot serve now is counted in its outage (answered 503).
      error: (...args) => {
        if (args.some(isRefusal)) deps.log.info({ yoga: args }, "refused");
        else if (args.some(isUnavailable)) deps.log.debug({ yoga: args }, "database unavailable: operation turned away");
        else deps.log.error({ yoga: args });
      },
    },
    // Yoga logs every error it masks (above); the mask itself is the one the legacy shim applies.
    maskedErrors: { maskError: errorMask(deps.log, database) },
  });
}

export type GraphQLServer = ReturnType<typeof createGraphQL>;
