import { DOMAIN_ERRORS, DomainError, ERROR_CODES, RateLimitError, ValidationError } from "../domain/errors.js";
import { builder } from "./builder.js";

/** Domain errors are part of the schema: each operation's result is a union with them. */
const ErrorCode = builder.enumType("ErrorCode", { values: ERROR_CODES });

export const ErrorInterface = builder.interfaceRef<DomainError>("Error").implement({
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
