import { createHash, timingSafeEqual } from "node:crypto";
import type { ServerResponse } from "node:http";
import { GraphQLError, getOperationAST, type DocumentNode, type ExecutionResult } from "graphql";
import { typeBrandKey } from "@pothos/core";
import { isAsyncIterable, type Plugin } from "graphql-yoga";
import { isUnavailable } from "../db/client.js";
import type { Logger } from "../domain/deps.js";
import { DomainError } from "../domain/errors.js";
import { GRAPHQL_SSE_PATH } from "../http/paths.js";
import { failure } from "../http/failure.js";
import { Response } from "../http/response.js";
import { BUSY } from "../http/overload.js";
import { wrapResolvers, type ResolverWrap } from "../graphql/wrap-resolvers.js";
import { OTHER, subscriptionField } from "./labels.js";
import type { Metrics, OperationTransport } from "./registry.js";

export const METRICS_PATH = "/metrics";

export interface MetricsAccess {
  /** The Bearer token scrapers must send; without one, /metrics is open unless `closedWithoutToken`. */
  token?: string;
  closedWithoutToken: boolean;
}

/** The code a caller is answered for `error`, as the error masking of yoga.ts words it. */
function errorCode(error: unknown): string {
  if (error instanceof GraphQLError) {
    if (typeof error.extensions.code === "string") return error.extensions.code;
    // GraphQL's own errors (variables that do not fit, say) are the client's.
    if (!error.originalError || error.originalError instanceof GraphQLError) return "BAD_REQUEST";
    error = error.originalError;
  }
  if (error instanceof DomainError) return error.code;
  return isUnavailable(error) ? BUSY.code : "INTERNAL";
}

const BEARER = /^Bearer\s+(\S+)\s*$/i;
const digest = (text: string) => createHash("sha256").update(text).digest();

/** Why this scrape is refused, if it is. Tokens are compared in constant time (as digests, of equal length). */
function refusal(request: Request, access: MetricsAccess): Response | null {
  if (!access.token) {
    return access.closedWithoutToken
      ? failure(403, "Las métricas están desactivadas: el servidor no tiene METRICS_TOKEN configurado")
      : null;
  }
  const sent = BEARER.exec(request.headers.get("authorization") ?? "")?.[1] ?? "";
  if (timingSafeEqual(digest(sent), digest(access.token))) return null;
  return failure(401, "Las métricas requieren la cabecera Authorization: Bearer <METRICS_TOKEN>", {
    "www-authenticate": 'Bearer realm="metrics"',
  });
}

/**
 * The domain error a field resolved to, if it did. The errors plugin hands it on wrapped in a proxy
 * that hides its class from instanceof, and brands it with the class it matched.
 */
function typedError(value: unknown): DomainError | null {
  const type = (value as { [typeBrandKey]?: unknown } | null)?.[typeBrandKey];
  return typeof type === "function" && type.prototype instanceof DomainError ? (value as DomainError) : null;
}

/** The function that counts an execution's typed domain errors, by the execution's context. */
const typedErrors = new WeakMap<object, (code: string) => void>();

/**
 * A field with typed errors (Pothos's errors plugin) resolves to the DomainError, and the result
 * says nothing of it unless the client selects it: each such field reports the error to
 * its execution's function, found by context, so each execution counts into its own server's metrics.
 */
const watchTypedErrors: ResolverWrap = (resolve, field) =>
  field.extensions.pothosErrors
    ? (source, args, context, info) => {
        const seen = (value: unknown) => {
          const error = typedError(value);
          if (error) typedErrors.get(context as object)?.(error.code);
          return value;
        };
        const value = resolve(source, args, context, info);
        return value instanceof Promise ? value.then(seen) : seen(value);
      }
    : null;

interface ExecutionContext {
  request?: Request;
  legacy?: unknown;
}

function transportOf(context: ExecutionContext): OperationTransport {
  if (context.legacy) return "legacy";
  if (!context.request) return "ws";
  const sse =
    /text\/event-stream/.test(context.request.headers.get("accept") ?? "") || new URL(context.request.url).pathname === GRAPHQL_SSE_PATH;
  return sse ? "sse" : "http";
}

/**
 * Starts measuring one execution of `document` with `context`: its time and outcome by operation,
 * and the errors it answers, typed ones included. Call the function returned with its result.
 */
export function measureExecution(
  metrics: Metrics,
  document: DocumentNode,
  operationName: string | null | undefined,
  context: object,
): (result: ExecutionResult) => void {
  const start = performance.now();
  const codes: string[] = [];
  typedErrors.set(context, (code) => codes.push(code));
  return (result) => {
    for (const error of result.errors ?? []) codes.push(errorCode(error));
    for (const code of codes) metrics.countError(code);
    const operation = getOperationAST(document, operationName);
    metrics.observeOperation(
      {
        operation: operation ? metrics.operationLabel(operation) : OTHER,
        type: operation?.operation ?? OTHER,
        transport: transportOf(context as ExecutionContext),
        outcome: codes.length > 0 ? "error" : "ok",
      },
      (performance.now() - start) / 1000,
    );
  };
}

/**
 * Serves /metrics and measures what passes through Yoga: every HTTP request (by route and status),
 * every GraphQL execution on every transport, legacy calls included (by operation), the errors
 * they answer (by code), event streams and SSE subscriptions. Its place in the plugin list
 * matters: see edgePlugins.
 */
export function useMetrics(metrics: Metrics, access: MetricsAccess, log: Logger): Plugin {
  /** Each request's path (Yoga has parsed its URL already) and when it arrived. */
  const started = new WeakMap<object, { pathname: string; at: number }>();

  async function scrape(request: Request): Promise<Response> {
    const refused = refusal(request, access);
    if (refused) return refused;
    try {
      return new Response(await metrics.text(), { headers: { "content-type": metrics.contentType } });
    } catch (error) {
      log.error({ err: error }, "could not gather the metrics");
      return failure(503, "No se pudieron reunir las métricas; intenta de nuevo");
    }
  }

  // The same hooks after every parse and validation, rather than new ones for each request.
  const parsed = ({ result }: { result: unknown }) => {
    if (result instanceof Error) metrics.countError(errorCode(result));
  };
  const validated = ({ result }: { result: readonly unknown[] }) => {
    for (const error of result) metrics.countError(errorCode(error));
  };

  return {
    onSchemaChange: ({ schema }) => wrapResolvers(schema, watchTypedErrors),
    onRequest({ request, url, serverContext, endResponse }) {
      if (url.pathname === METRICS_PATH) return scrape(request).then(endResponse);
      started.set(serverContext, { pathname: url.pathname, at: performance.now() });
    },
    onResponse({ request, response, serverContext }) {
      const start = started.get(serverContext);
      if (!start) return;
      started.delete(serverContext);
      metrics.observeRequest(request.method, start.pathname, response.status, (performance.now() - start.at) / 1000);
      const socket = (serverContext as { res?: ServerResponse }).res;
      if (socket && /^text\/event-stream\b/i.test(response.headers.get("content-type") ?? "")) socket.once("close", metrics.streamOpened());
    },
    // A document refused before it runs (syntax, validation, graphql-armor's limits) never reaches onExecute.
    onParse: () => parsed,
    onValidate: () => validated,
    onPluginInit({ registerContextErrorHandler }) {
      // A caller refused while its context is built (identity) never reaches execution.
      registerContextErrorHandler(({ error }) => metrics.countError(errorCode(error)));
    },
    onExecute({ args }) {
      const done = measureExecution(metrics, args.document, args.operationName, args.contextValue);
      return {
        onExecuteDone({ result }) {
          done(isAsyncIterable(result) ? {} : result);
        },
      };
    },
    onSubscribe({ args }) {
      // WebSocket subscribers are counted by the socket (websocket.ts), shared executions included.
      const overHttp = Boolean((args.contextValue as ExecutionContext).request);
      let ended: (() => void) | undefined;
      return {
        onSubscribeResult({ result }) {
          if (!isAsyncIterable(result)) {
            for (const error of result.errors ?? []) metrics.countError(errorCode(error));
            return;
          }
          if (!overHttp) return;
          ended = metrics.subscriptionStarted(subscriptionField(args.document, args.operationName));
          return { onEnd: ended };
        },
        onSubscribeError({ error }) {
          metrics.countError(errorCode(error));
          ended?.();
        },
      };
    },
  };
}
