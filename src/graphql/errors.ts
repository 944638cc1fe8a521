import {
  AccountDisabledError,
  DebtLimitError,
  DOMAIN_ERRORS,
  type DomainError,
  ERROR_CODES,
  ForbiddenError,
  NotFoundError,
  RateLimitError,
  UnauthenticatedError,
  UpstreamError,
  ValidationError,
} from "../domain/errors.js";
import { builder } from "./builder.js";

/** Domain errors are part of the schema: each operation's result is a union with them. */
const ErrorCode = builder.enumType("ErrorCode", { values: ERROR_CODES });

const ErrorInterface = builder.interfaceRef<DomainError>("Error").implement({
  fields: (t) => ({
    code: t.field({ type: ErrorCode, resolve: (error) => error.code }),
    message: t.exposeString("message"),
  }),
});

for (const ErrorClass of DOMAIN_ERRORS) {
  if (ErrorClass === ValidationError || ErrorClass === RateLimitError) continue;
  builder.objectType(ErrorClass, { name: ErrorClass.name, interfaces: [ErrorInterface], fields: () => ({}) });
}

builder.objectType(ValidationError, {
  name: "ValidationError",
  interfaces: [ErrorInterface],
  fields: (t) => ({
    field: t.exposeString("field", { nullable: true, description: "El campo de la entrada que falla" }),
    reason: t.exposeString("reason", { description: "Qué le pasa al campo, sin nombrarlo" }),
  }),
});

builder.objectType(RateLimitError, {
  name: "RateLimitError",
  interfaces: [ErrorInterface],
  fields: (t) => ({
    retry_after_s: t.exposeInt("retryAfterS", { description: "Segundos que conviene esperar antes de intentarlo de nuevo" }),
  }),
});

/*
 * Each operation's union lists only the errors its resolver can throw, so that clients' generated
 * types say what can go wrong; a domain error a field does not list would reach the client as a
 * top-level error instead. Fields combine these groups, named for where the errors come from, with
 * the errors of their own domain code. Anonymous callers never reach a resolver that is not public
 * (useSignInRequired answers 401 first): there, UnauthenticatedError is a legacy call naming nobody.
 */

/** Acts for whoever calls: only a legacy call that names nobody (LEGACY_AUTH=ids) is refused. */
export const CALLER = [UnauthenticatedError];
/** An area's rule admits some callers only: a legacy call that names nobody, or somebody else, is refused. */
export const RESTRICTED = [UnauthenticatedError, ForbiddenError];
/** A rule that also trusts legacy calls naming nobody, as the specification has them: only somebody else is refused. */
export const RESTRICTED_TRUSTING_LEGACY = [ForbiddenError];
/** Input the domain checks, naming a record that must exist. */
export const LOOKUP = [ValidationError, NotFoundError];
/** A driver who must be allowed to work now: account in good standing, approved, vehicle and documents in force. */
export const DRIVER_AT_WORK = [AccountDisabledError, ForbiddenError, ValidationError, DebtLimitError];
/** Routes and places, from map providers that may be down. */
export const MAPS = [ValidationError, UpstreamError];
