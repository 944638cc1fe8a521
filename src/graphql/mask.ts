import { GraphQLError } from "graphql";
import type { Logger } from "../domain/deps.js";
import { DomainError } from "../domain/errors.js";
import type { DatabaseOutage } from "../domain/outage.js";
import { busyError } from "../http/overload.js";
import { HTTP_STATUS } from "../http/status.js";

/**
 * What a caller may read of an error an operation ended with. GraphQL's own errors (syntax,
 * validation, bad variables) are the client's to read; domain errors outside a typed result
 * (subscriptions, for one) keep their message and code; a database that cannot serve now is a 503
 * the client may retry; anything else is logged and hidden.
 */
export function errorMask(log: Logger, database: DatabaseOutage): (error: unknown) => GraphQLError {
  return (error) => {
    const original = error instanceof GraphQLError ? error.originalError : error;
    if (error instanceof GraphQLError && (!original || original instanceof GraphQLError)) return error;
    if (original instanceof DomainError) {
      return new GraphQLError(original.message, { extensions: { code: original.code, http: { status: HTTP_STATUS[original.code] } } });
    }
    if (database.report("requests", original)) return busyError();
    log.error({ err: original }, "unexpected error in a GraphQL operation");
    return new GraphQLError("Error interno del servidor", { extensions: { code: "INTERNAL", http: { status: 500 } } });
  };
}
