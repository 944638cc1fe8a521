import { GraphQLError } from "graphql";
import { failure, graphqlFailure } from "./failure.js";

/**
 * What a caller turned away is told, and when to come back: the service is too busy, or its
 * database cannot serve now (lost, restarting, out of connections). Nothing was done, or what was
 * is safe to retry with the same Idempotency-Key.
 */
export const BUSY = {
  code: "SERVICE_UNAVAILABLE",
  message: "El servicio está ocupado; intenta de nuevo en unos segundos",
  retryAfterS: 2,
  status: 503,
} as const;

export const busyHeaders = { "retry-after": String(BUSY.retryAfterS) };

/** The answer to a request turned away: GraphQL's shape on its path, the legacy one elsewhere. */
export function busyResponse(graphql: boolean): Response {
  return graphql ? graphqlFailure(BUSY.status, BUSY.message, BUSY.code, busyHeaders) : failure(BUSY.status, BUSY.message, busyHeaders);
}

/**
 * The same, as the error of a GraphQL operation: over HTTP it makes the answer 503 with
 * Retry-After; over a subscription it is the error the operation ends with, which a client may retry.
 */
export const busyError = () =>
  new GraphQLError(BUSY.message, { extensions: { code: BUSY.code, http: { status: BUSY.status, headers: busyHeaders } } });

/** Whether `error` is that error, as an operation was turned away. */
export const isBusyError = (error: unknown) => error instanceof GraphQLError && error.extensions.code === BUSY.code;
