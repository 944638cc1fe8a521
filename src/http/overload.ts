import { failure, graphqlFailure } from "./failure.js";

/** What a caller turned away because the service is too busy is told, and when to come back. */
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
