import { EnvelopArmor } from "@escape.tech/graphql-armor";
import { GraphQLError, type ValidationContext, type ValidationRule } from "graphql";
import type { Plugin } from "graphql-yoga";
import type { CORSOptions } from "@whatwg-node/server";
import { type BodyLimits, limitFor, readAndHandOn, unreadableBody } from "../http/body.js";
import { graphqlFailure } from "../http/failure.js";
import { securityHeaders } from "../http/security-headers.js";

/** What the public edge of the GraphQL API allows; see the configuration for each value. */
export interface EdgeSettings extends BodyLimits {
  introspection: boolean;
  maxDepth: number;
  maxAliases: number;
  maxTokens: number;
  maxDirectives: number;
  maxCost: number;
  corsOrigins: string[];
}

/**
 * graphql-armor's protections, with its default limits unless configured. A refusal is reported
 * in Spanish with a code of ours instead of graphql-armor's English "Syntax Error" wording.
 */
function armor(settings: EdgeSettings): Plugin[] {
  const refuse = (message: string) => ({
    propagateOnRejection: false,
    onReject: [
      (context: ValidationContext | null) => {
        const error = new GraphQLError(message, { extensions: { code: "QUERY_TOO_COMPLEX" } });
        // Validation rules report; the token count runs while parsing, where only throwing stops it.
        if (context) context.reportError(error);
        else throw error;
      },
    ],
  });
  const limit = (n: number, message: string) => ({ n, exposeLimits: false, ...refuse(message) });
  // A fragment, named or inline, counts as the fields it holds where it stands: it adds no level of
  // depth, and costs what its fields would cost written out there (a spread a little more), so that
  // documents can share their selections in fragments.
  return new EnvelopArmor({
    maxDepth: { ...limit(settings.maxDepth, `La consulta anida más de ${settings.maxDepth} niveles`), flattenFragments: true },
    maxAliases: limit(settings.maxAliases, `La consulta usa más de ${settings.maxAliases} alias`),
    maxTokens: limit(settings.maxTokens, `La consulta tiene más de ${settings.maxTokens} elementos`),
    maxDirectives: limit(settings.maxDirectives, `La consulta usa más de ${settings.maxDirectives} directivas`),
    costLimit: {
      maxCost: settings.maxCost,
      flattenFragments: true,
      exposeLimits: false,
      ...refuse(`La consulta supera el costo máximo de ${settings.maxCost}`),
    },
    blockFieldSuggestion: { enabled: !settings.introspection, mask: "" },
  }).protect().plugins as Plugin[];
}

const noIntrospection: ValidationRule = (context) => ({
  Field(node) {
    if (node.name.value === "__schema" || node.name.value === "__type") {
      context.reportError(
        new GraphQLError("La introspección del esquema está desactivada en este servidor", {
          nodes: node,
          extensions: { code: "INTROSPECTION_DISABLED" },
        }),
      );
    }
  },
});

/**
 * Bodies over the limit answer 413 before GraphQL reads them. A declared length is enough (Node
 * never reads past it); a body sent without one is read up to the limit and handed on.
 */
function useBodyLimit(endpoints: string[], settings: EdgeSettings): Plugin {
  return {
    onRequest({ request, url, fetchAPI, setRequest, endResponse }) {
      if (!endpoints.includes(url.pathname) || !request.body) return;
      const limit = limitFor(request, settings);
      const declared = request.headers.get("content-length");
      if (declared !== null && Number(declared) <= limit) return;
      return (async () => {
        try {
          await readAndHandOn(request, limit, fetchAPI, setRequest);
        } catch (error) {
          // Thrown here, an error would escape the server: every failure becomes an answer.
          endResponse(unreadableBody(error, limit, graphqlFailure));
        }
      })();
    },
  };
}

/** API answers are never sniffed as another type nor cached, unless a route chose its own caching. */
const secured: Plugin = {
  onResponse({ response }) {
    for (const [name, value] of securityHeaders(response.headers)) response.headers.set(name, value);
  },
};

/**
 * An event stream answers 200 whatever it carries. Yoga's SSE gives a refused operation the status
 * of its errors (401, 403) as it does for JSON, and GraphQL over SSE clients (EventSource,
 * graphql-sse) take any status but 200 for a broken connection and never read the errors; in the
 * stream they arrive as a `next` event with `errors`, then `complete`. JSON answers keep theirs.
 */
const eventStreamsAnswerOk: Plugin = {
  onResponse({ response, setResponse, fetchAPI }) {
    if (response.status === 200 || !/^text\/event-stream\b/i.test(response.headers.get("content-type") ?? "")) return;
    const headers = new fetchAPI.Headers(response.headers);
    // Not a challenge any more: the refusal is in the stream.
    headers.delete("www-authenticate");
    setResponse(new fetchAPI.Response(response.body, { status: 200, headers }));
  },
};

/** Browsers may call from the configured origins only; tokens travel in a header, so no credentials. */
export const corsFor =
  (settings: EdgeSettings) =>
  (request: Request): CORSOptions => {
    const origin = request.headers.get("origin");
    if (!origin || !settings.corsOrigins.includes(origin)) return false;
    return {
      origin: [origin],
      credentials: false,
      methods: ["GET", "POST", "PUT", "DELETE", "OPTIONS"],
      // graphql-sse's single-connection mode names its stream in x-graphql-event-stream-token.
      allowedHeaders: ["authorization", "content-type", "idempotency-key", "x-request-id", "x-graphql-event-stream-token"],
      maxAge: 600,
    };
  };

/**
 * Every protection of the public edge, in the order they apply; `endpoints` are the paths GraphQL is
 * read on. `metrics` comes after the plugins that change answers (its onResponse sees the status
 * sent) and before any that may answer early (its onRequest starts the clock for every request).
 */
export function edgePlugins(endpoints: string[], settings: EdgeSettings, metrics: Plugin): Plugin[] {
  return [
    secured,
    eventStreamsAnswerOk,
    metrics,
    useBodyLimit(endpoints, settings),
    ...armor(settings),
    ...(settings.introspection ? [] : [{ onValidate: ({ addValidationRule }) => addValidationRule(noIntrospection) } satisfies Plugin]),
  ];
}
