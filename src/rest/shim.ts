import { validate, type ExecutionResult, type GraphQLSchema } from "graphql";
import { DOMAIN_ERRORS, DomainError, ERROR_STATUS, ValidationError, fieldMessage, type ErrorCode } from "../domain/errors.js";
import type { Logger } from "../domain/deps.js";
import { parseInput } from "../domain/validation.js";
import { BodyTooLargeError, parseJsonObject, readBody, readMultipart } from "./body.js";
import type { LegacyRoute, Method, ParsedOperation } from "./route.js";

/** Runs a pre-parsed operation through the GraphQL pipeline as the given caller. */
export type Execute = (
  operation: ParsedOperation,
  variables: Record<string, unknown>,
  callerId: number | undefined,
) => Promise<ExecutionResult>;

export interface ShimOptions {
  schema: GraphQLSchema;
  execute: Execute;
  log: Logger;
  bodyLimit: number;
  /** Multipart bodies carry files and may be larger. */
  multipartLimit: number;
}

interface LegacyErrorResult {
  __typename: string;
  code: ErrorCode;
  message: string;
  field?: string | null;
  reason?: string;
}

const ERROR_TYPES = new Set<string>(DOMAIN_ERRORS.map((ErrorClass) => ErrorClass.name));
const isLegacyError = (value: unknown): value is LegacyErrorResult =>
  typeof value === "object" && value !== null && ERROR_TYPES.has((value as { __typename?: string }).__typename ?? "");

const legacyJson = (status: number, body: Record<string, unknown>, headers?: Record<string, string>) =>
  Response.json(body, { status, headers });

const legacyFailure = (status: number, message: string, headers?: Record<string, string>) =>
  legacyJson(status, { success: false, message }, headers);

/** The `.php` shim: finds the route, reads and types the legacy input, runs the operation, answers. */
export function createShim(routes: LegacyRoute[], options: ShimOptions) {
  const table = new Map<string, Map<Method, LegacyRoute>>();
  for (const route of routes) {
    const problems = validate(options.schema, route.document.document);
    if (problems.length > 0) throw new Error(`${route.method} ${route.path}: ${problems.map((p) => p.message).join("; ")}`);
    const methods = table.get(route.path) ?? new Map<Method, LegacyRoute>();
    if (methods.has(route.method)) throw new Error(`${route.method} ${route.path} is defined twice`);
    table.set(route.path, methods.set(route.method, route));
  }

  async function readInput(route: LegacyRoute, request: Request): Promise<Record<string, unknown>> {
    if (route.method === "GET") return Object.fromEntries(new URL(request.url).searchParams);
    if (route.multipart) return readMultipart(request, options.multipartLimit);
    if (route.requireJsonContentType && !/^application\/json\b/i.test(request.headers.get("content-type") ?? "")) {
      throw new ValidationError("La cabecera Content-Type debe ser application/json");
    }
    return parseJsonObject(await readBody(request, options.bodyLimit));
  }

  function answer(route: LegacyRoute, result: ExecutionResult, input: unknown): Response {
    const [error] = result.errors ?? [];
    if (error) {
      const http = error.extensions?.http as { status?: number } | undefined;
      if (error.extensions?.code === "INTERNAL") return legacyFailure(500, error.message);
      return legacyFailure(http?.status ?? 400, error.message);
    }
    const value = result.data?.[route.document.rootField];
    if (isLegacyError(value)) {
      const legacyName = value.field ? route.legacyNames?.[value.field] : undefined;
      const message = legacyName && value.reason ? fieldMessage(legacyName, value.reason) : value.message;
      return legacyFailure(ERROR_STATUS[value.code], message);
    }
    return legacyJson(route.status ?? 200, { success: true, ...route.respond(value, input) });
  }

  return {
    handles: (pathname: string) => pathname.endsWith(".php"),
    async handle(request: Request): Promise<Response> {
      const { pathname } = new URL(request.url);
      const methods = table.get(pathname);
      if (!methods) return legacyFailure(404, `No existe la ruta ${pathname}`);
      const route = methods.get(request.method as Method);
      if (!route) {
        const allowed = [...methods.keys()].join(", ");
        return legacyFailure(405, `La ruta ${pathname} no admite el método ${request.method}; use ${allowed}`, {
          Allow: allowed,
        });
      }
      try {
        const input = parseInput(route.input, await readInput(route, request));
        const result = await options.execute(route.document, route.variables(input), route.caller?.(input));
        return answer(route, result, input);
      } catch (error) {
        if (error instanceof BodyTooLargeError) {
          return legacyFailure(413, `El cuerpo de la petición supera el límite de ${error.limit} bytes`);
        }
        if (error instanceof DomainError) return legacyFailure(error.status, error.message);
        options.log.error({ err: error, path: pathname }, "legacy call failed");
        return legacyFailure(500, "Error interno del servidor");
      }
    },
  };
}
