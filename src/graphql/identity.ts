import { GraphQLError } from "graphql";
import { UnauthenticatedError } from "../domain/errors.js";
import type { Context } from "./context.js";

/**
 * Caller identity, resolved here and nowhere else. Today the caller states its user id
 * (spec section 5): an `X-User-Id` header over HTTP (the legacy shim sets it from the id in the
 * legacy request), or `userId` in the graphql-ws connection parameters. A token scheme replaces
 * `callerFrom` and leaves resolvers alone.
 */
export const CALLER_HEADER = "x-user-id";

export interface Caller {
  userId: number;
}

export interface Transport {
  request?: { headers: Headers };
  connectionParams?: Record<string, unknown>;
  /** Set only by the legacy shim, in-process: outside requests cannot carry it. */
  legacy?: boolean;
}

export function callerFrom(transport: Transport): Caller | null {
  const raw = transport.connectionParams?.userId ?? transport.request?.headers.get(CALLER_HEADER);
  if (raw === undefined || raw === null || raw === "") return null;
  const userId = Number(raw);
  if (!Number.isSafeInteger(userId) || userId <= 0) {
    throw new GraphQLError(`El identificador de usuario '${String(raw)}' no es válido`, {
      extensions: { code: "VALIDATION", http: { status: 400 } },
    });
  }
  return { userId };
}

const unidentified = () =>
  new UnauthenticatedError(`Identifícate enviando tu id de usuario en el encabezado ${CALLER_HEADER}`);

/** The caller's user id; operations that act on someone's behalf need one. */
export function callerId(ctx: Context): number {
  if (!ctx.caller) throw unidentified();
  return ctx.caller.userId;
}

/**
 * Some legacy calls name nobody (start_trip, aprobar_conductor, …) and the old service trusted
 * them. Through the shim they keep working anonymously (null here); on the GraphQL API the
 * caller must identify themselves.
 */
export function callerOrLegacy(ctx: Context): number | null {
  if (ctx.caller) return ctx.caller.userId;
  if (ctx.legacy) return null;
  throw unidentified();
}
