import type { IncomingMessage, ServerResponse } from "node:http";
import { validate, type DocumentNode, type ExecutionResult, type GraphQLError, type GraphQLSchema } from "graphql";
import type { z } from "zod";
import type { Plugin } from "graphql-yoga";
import { DOMAIN_ERRORS, DomainError, RateLimitError, ValidationError, fieldMessage, type ErrorCode } from "../domain/errors.js";
import type { Logger } from "../domain/deps.js";
import { parseInput } from "../domain/validation.js";
import type { Context } from "../graphql/context.js";
import type { LegacyClaim, Transport } from "../graphql/identity.js";
import { BodyTooLargeError, readBytes, readNodeBytes, tooLargeMessage } from "../http/body.js";
import { asResponse, jsonAnswer, type Answer } from "../http/answer.js";
import type { DatabaseOutage } from "../domain/outage.js";
import { BUSY, busyHeaders } from "../http/overload.js";
import { signInRefusal } from "../graphql/sign-in.js";
import { parseJsonObject, readMultipart } from "./body.js";
import type { LegacyRoute, Method } from "./route.js";
import { LEGACY_STATUS } from "./status.js";
import { documentRunner } from "./compiled-documents.js";

export interface ShimOptions {
  schema: GraphQLSchema;
  log: Logger;
  bodyLimit: number;
  /** Multipart bodies carry files and may be larger. */
  multipartLimit: number;
  /** Told the code of each call turned away before its operation runs (the metrics count the rest). */
  countError: (code: string) => void;
  /** Counts the calls answered 503 because the database cannot serve now. */
  database: DatabaseOutage;
  /** Why a call can be nobody's as sent (LEGACY_AUTH=token, no token), before its fields are read. */
  unsigned: (isPublic: boolean, headers: RequestHeaders) => Error | null;
  /** The context every operation runs with, made from the call (GraphQL's own factory). */
  context: (transport: Transport) => Promise<Context>;
  /** What a caller may read of an error an operation ended with (GraphQL's own masking). */
  mask: (error: unknown) => GraphQLError;
  /** Starts measuring an execution; the function returned takes its result. */
  measure: (document: DocumentNode, context: object) => (result: ExecutionResult) => void;
}

/** The headers of a request as the shim reads them. */
type RequestHeaders = Pick<Headers, "get">;

/** What the shim reads of a call, whether Yoga or Node handed it over. */
interface LegacyCall {
  method: string;
  url: URL;
  headers: RequestHeaders;
  /** The body, refused over `limit` bytes. */
  bytes(limit: number): Promise<Buffer>;
  /** What the server hands every operation: Node's request and response. */
  serverContext: object;
}

/** A Node request's headers, read as Fetch's are: by name in any case, repeated values joined. */
const nodeHeaders = (req: IncomingMessage): RequestHeaders => ({
  get(name) {
    const value = req.headers[name.toLowerCase()];
    return value === undefined ? null : Array.isArray(value) ? value.join(", ") : value;
  },
});

interface LegacyErrorResult {
  __typename: string;
  code: ErrorCode;
  message: string;
  field?: string | null;
  reason?: string;
  retry_after_s?: number | null;
}

const ERROR_TYPES = new Set<string>(DOMAIN_ERRORS.map((ErrorClass) => ErrorClass.name));
const isLegacyError = (value: unknown): value is LegacyErrorResult =>
  typeof value === "object" && value !== null && ERROR_TYPES.has((value as { __typename?: string }).__typename ?? "");

/** `{ success: false, message }`, with Retry-After when the client should wait. */
const legacyFailure = (status: number, message: string, headers?: Record<string, string>, retryAfterS?: number | null) =>
  jsonAnswer(status, { success: false, message }, retryAfterS ? { ...headers, "retry-after": String(retryAfterS) } : headers);

interface LegacyInput {
  fields: Record<string, unknown>;
  /** The spelling each field arrived in, so that messages name what the caller sent. */
  sentAs: Record<string, string>;
}

function parseWithSpelling(schema: z.ZodType, fields: Record<string, unknown>, sentAs: Record<string, string>): Record<string, unknown> {
  try {
    return parseInput(schema, fields) as Record<string, unknown>;
  } catch (error) {
    if (error instanceof ValidationError && error.field && sentAs[error.field] && sentAs[error.field] !== error.field) {
      throw new ValidationError(error.reason, sentAs[error.field]);
    }
    throw error;
  }
}

/**
 * A call's fields in the route's own spelling, typed. Fields the call does not know are refused
 * when nothing it knows carries data (or what it knows is wrong): a call must never answer success
 * while the data it was sent went unread.
 */
function readFields(route: LegacyRoute, known: ReadonlySet<string>, raw: Record<string, unknown>): LegacyInput {
  const fields: Record<string, unknown> = {};
  const sentAs: Record<string, string> = {};
  const unknown: string[] = [];
  for (const [name, value] of Object.entries(raw)) {
    const own = route.spellings?.[name] ?? name;
    if (route.ignored?.includes(name)) continue;
    if (!known.has(own)) unknown.push(name);
    // The route's own spelling wins when both arrive.
    else if (!(own in fields) || own === name) {
      fields[own] = value;
      sentAs[own] = name;
    }
  }
  if (unknown.length === 0) return { fields: parseWithSpelling(route.input, fields, sentAs), sentAs };
  const parsed = route.input.safeParse(fields);
  const carriesData = Object.entries(fields).some(([name, value]) => name !== route.caller && value != null);
  if (parsed.success && carriesData) return { fields: parsed.data as Record<string, unknown>, sentAs };
  throw new ValidationError(
    `${unknown.length === 1 ? "El campo" : "Los campos"} ${unknown.map((n) => `'${n}'`).join(", ")} ` +
      `no ${unknown.length === 1 ? "existe" : "existen"} en esta llamada; admite: ${[...known].join(", ")}`,
  );
}

/**
 * The `.php` shim: it finds the route, reads and types the legacy input, runs the route's operation
 * as GraphQL does (the same context factory with the request's own credentials, the same sign-in
 * rule, error masking and metrics, on the same schema) and answers in the legacy shape. It takes
 * calls as a Yoga plugin and, for most of the apps' traffic, straight from Node (`fromNode`).
 */
export function legacyShim(
  routes: LegacyRoute[],
  options: ShimOptions,
): { plugin: Plugin; fromNode: NodeLane; serves: (pathname: string) => boolean } {
  // Each route with the names of its fields, worked out once.
  const table = new Map<string, Map<Method, { route: LegacyRoute; known: ReadonlySet<string> }>>();
  for (const route of routes) {
    const problems = validate(options.schema, route.document.document);
    if (problems.length > 0) throw new Error(`${route.method} ${route.path}: ${problems.map((p) => p.message).join("; ")}`);
    const entry = { route, known: new Set(Object.keys(route.input.shape)) };
    for (const path of [route.path, ...(route.aliases ?? [])]) {
      const methods = table.get(path) ?? new Map();
      if (methods.has(route.method)) throw new Error(`${route.method} ${path} is defined twice`);
      table.set(path, methods.set(route.method, entry));
    }
  }
  const run = documentRunner(options.schema);

  async function readInput(route: LegacyRoute, call: LegacyCall): Promise<Record<string, unknown>> {
    if (route.method === "GET") return Object.fromEntries(call.url.searchParams);
    const type = call.headers.get("content-type") ?? "";
    if (route.multipart) return readMultipart(type, () => call.bytes(options.multipartLimit));
    if (route.requireJsonContentType && !/^application\/json\b/i.test(type)) {
      throw new ValidationError("La cabecera Content-Type debe ser application/json");
    }
    return parseJsonObject((await call.bytes(options.bodyLimit)).toString("utf8"));
  }

  function claimOf(route: LegacyRoute, input: Record<string, unknown>): LegacyClaim {
    const id = route.caller ? input[route.caller] : undefined;
    return { public: route.public === true, caller: typeof id === "number" ? { field: route.caller!, id } : undefined };
  }

  async function execute(route: LegacyRoute, input: Record<string, unknown>, call: LegacyCall): Promise<ExecutionResult> {
    const legacy = claimOf(route, input);
    const context = { legacy, ...(await options.context({ ...call.serverContext, request: { headers: call.headers }, legacy })) };
    const { document } = route.document;
    const refusal = signInRefusal(context.actor, options.schema, document);
    const done = options.measure(document, context);
    const result = refusal ? { errors: [refusal] } : await run(document, context, route.variables(input));
    const masked = result.errors ? { ...result, errors: result.errors.map(options.mask) } : result;
    done(masked);
    return masked;
  }

  function answer(route: LegacyRoute, result: ExecutionResult, { fields, sentAs }: LegacyInput): Answer {
    const [error] = result.errors ?? [];
    if (error) {
      const http = error.extensions?.http as { status?: number; headers?: Record<string, string> } | undefined;
      if (error.extensions?.code === "INTERNAL") return legacyFailure(500, error.message);
      return legacyFailure(http?.status ?? 400, error.message, http?.headers);
    }
    const value = result.data?.[route.document.rootField];
    if (isLegacyError(value)) {
      // The field as the caller named it.
      const name = value.field && (route.legacyNames?.[value.field] ?? value.field);
      const message = name && value.reason ? fieldMessage(sentAs[name] ?? name, value.reason) : value.message;
      return legacyFailure(LEGACY_STATUS[value.code], message, undefined, value.retry_after_s);
    }
    return jsonAnswer(200, { success: true, ...route.respond(value, fields) });
  }

  /** The answer to an error thrown while serving a call, and the error's code. */
  function failed(error: unknown, pathname: string): { code: string; response: Answer } {
    if (error instanceof BodyTooLargeError)
      return { code: "PAYLOAD_TOO_LARGE", response: legacyFailure(413, tooLargeMessage(error.limit)) };
    if (error instanceof DomainError) {
      const retryAfterS = error instanceof RateLimitError ? error.retryAfterS : null;
      return { code: error.code, response: legacyFailure(LEGACY_STATUS[error.code], error.message, undefined, retryAfterS) };
    }
    if (options.database.report("requests", error)) {
      return { code: BUSY.code, response: legacyFailure(BUSY.status, BUSY.message, busyHeaders) };
    }
    options.log.error({ err: error, path: pathname }, "legacy call failed");
    return { code: "INTERNAL", response: legacyFailure(500, "Error interno del servidor") };
  }

  /** A call turned away before its operation runs, which the metrics would not otherwise see. */
  function refused(code: string, response: Answer): Answer {
    options.countError(code);
    return response;
  }

  async function handle(call: LegacyCall): Promise<Answer> {
    const { pathname } = call.url;
    const methods = table.get(pathname);
    if (!methods) return refused("NOT_FOUND", legacyFailure(404, `No existe la ruta ${pathname}`));
    const entry = methods.get(call.method as Method);
    if (!entry) {
      const allowed = [...methods.keys()].join(", ");
      const message = `La ruta ${pathname} no admite el método ${call.method}; use ${allowed}`;
      return refused("METHOD_NOT_ALLOWED", legacyFailure(405, message, { Allow: allowed }));
    }
    const { route, known } = entry;
    let input: LegacyInput;
    try {
      const unsigned = options.unsigned(route.public === true, call.headers);
      if (unsigned) throw unsigned;
      input = readFields(route, known, await readInput(route, call));
    } catch (error) {
      const { code, response } = failed(error, pathname);
      return refused(code, response);
    }
    let result: ExecutionResult;
    try {
      result = await execute(route, input.fields, call);
    } catch (error) {
      // A caller refused as its context was made (identity) is counted here: no execution saw it.
      const { code, response } = failed(error, pathname);
      return refused(code, response);
    }
    return answer(route, result, input);
  }

  /**
   * A call read from Node's own request, without the Fetch request and response Yoga would make of
   * it and the hooks of every plugin on the way: a ping costs the server about 30% less CPU. Only
   * calls no other plugin acts on come this way: a route's path, sent without Origin and not as
   * OPTIONS (Yoga's CORS answers those), nor with an Idempotency-Key (src/http/idempotency.ts).
   * Whoever calls this sends the answer, with the headers every answer gets, and counts it in the
   * metrics.
   */
  const fromNode: NodeLane = (req, res, url) => {
    const { headers } = req;
    if (!table.has(url.pathname) || req.method === "OPTIONS" || headers.origin !== undefined || headers["idempotency-key"] !== undefined)
      return null;
    const call = {
      method: req.method ?? "GET",
      url,
      headers: nodeHeaders(req),
      bytes: (limit: number) => readNodeBytes(req, limit),
      serverContext: { req, res },
    };
    return handle(call);
  };

  const plugin: Plugin = {
    onRequest({ request, url, serverContext, endResponse }) {
      if (!url.pathname.endsWith(".php")) return;
      const call = {
        method: request.method,
        url,
        headers: request.headers,
        bytes: (limit: number) => readBytes(request, limit),
        serverContext,
      };
      return handle(call).then((answered) => endResponse(asResponse(answered)));
    },
  };
  return { plugin, fromNode, serves: (pathname) => table.has(pathname) };
}

/** The answer to a call taken straight from Node, or null for one to hand to Yoga. */
export type NodeLane = (req: IncomingMessage, res: ServerResponse, url: URL) => Promise<Answer> | null;
