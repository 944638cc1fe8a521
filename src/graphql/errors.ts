import {
  AccountDisabledError,
  DebtLimitError,
  DOMAIN_ERRORS,
  type DomainError,
  type ErrorCode,
  ForbiddenError,
  NotFoundError,
  RateLimitError,
  UnauthenticatedError,
  UpstreamError,
  ValidationError,
} from "../domain/errors.js";
import { builder } from "./builder.js";
import { describedEnum } from "./types/enums.js";

/** What each error means. */
const MEANINGS = {
  VALIDATION: "Un dato de la entrada no es válido; field dice cuál y reason qué le pasa",
  INVALID_STATE: "El registro no está en un estado que permita la operación",
  UNAUTHENTICATED: "Falta una sesión válida (el token en Authorization: Bearer)",
  INVALID_CREDENTIALS: "El correo o la contraseña no son correctos",
  FORBIDDEN: "Quien llama no puede hacer esto, o no sobre ese registro",
  ACCOUNT_DISABLED: "La cuenta está desactivada o suspendida",
  NOT_FOUND: "El registro nombrado no existe",
  CONFLICT: "Choca con otro registro (un dato único repetido) o con algo en curso",
  PAYLOAD_TOO_LARGE: "El archivo enviado pasa del tamaño permitido",
  RATE_LIMITED: "Demasiados intentos seguidos; retry_after_s dice cuánto esperar",
  NO_DRIVERS_AVAILABLE: "No hay conductores disponibles cerca para el viaje",
  DEBT_LIMIT: "El conductor debe a la plataforma más del límite y no puede conectarse",
  UPSTREAM_UNAVAILABLE: "Un servicio externo (mapas) no respondió",
} satisfies Record<ErrorCode, string>;

/** Domain errors are part of the schema: each operation's result is a union with them. */
const ErrorCodeEnum = describedEnum("ErrorCode", "Qué clase de error es, estable para los programas", MEANINGS);

const ErrorInterface = builder.interfaceRef<DomainError>("Error").implement({
  description: "Un error que una operación prevé: su código y un mensaje en español para mostrar",
  fields: (t) => ({
    code: t.field({ type: ErrorCodeEnum, description: "Qué clase de error es", resolve: (error) => error.code }),
    message: t.exposeString("message", { description: "Lo que pasó, para mostrarlo a la persona" }),
  }),
});

// Each class names its code on its instances only.
const meaningOf = (ErrorClass: (typeof DOMAIN_ERRORS)[number]) => MEANINGS[(Reflect.construct(ErrorClass, ["", 0]) as DomainError).code];

for (const ErrorClass of DOMAIN_ERRORS) {
  if (ErrorClass === ValidationError || ErrorClass === RateLimitError) continue;
  builder.objectType(ErrorClass, {
    name: ErrorClass.name,
    description: meaningOf(ErrorClass),
    interfaces: [ErrorInterface],
    fields: () => ({}),
  });
}

builder.objectType(ValidationError, {
  name: "ValidationError",
  description: meaningOf(ValidationError),
  interfaces: [ErrorInterface],
  fields: (t) => ({
    field: t.exposeString("field", { nullable: true, description: "El campo de la entrada que falla" }),
    reason: t.exposeString("reason", { description: "Qué le pasa al campo, sin nombrarlo" }),
  }),
});

builder.objectType(RateLimitError, {
  name: "RateLimitError",
  description: meaningOf(RateLimitError),
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
