/**
 * Domain errors. Each has a stable code, which the HTTP layers turn into a status (src/http/status.ts
 * and, for the legacy calls, src/rest/status.ts). Messages are Spanish and meant for end users.
 */
export const ERROR_CODES = [
  "VALIDATION",
  "INVALID_STATE",
  "UNAUTHENTICATED",
  "INVALID_CREDENTIALS",
  "FORBIDDEN",
  "ACCOUNT_DISABLED",
  "NOT_FOUND",
  "CONFLICT",
  "PAYLOAD_TOO_LARGE",
  "RATE_LIMITED",
  "NO_DRIVERS_AVAILABLE",
  "DEBT_LIMIT",
  "UPSTREAM_UNAVAILABLE",
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export abstract class DomainError extends Error {
  abstract readonly code: ErrorCode;
}

/** `El campo 'x' <reason>`: the one shape of a message about a single input field. */
export const fieldMessage = (field: string, reason: string) => `El campo '${field}' ${reason}`;

export class ValidationError extends DomainError {
  readonly code = "VALIDATION";
  /** `field` names the input that is wrong; `reason` says what is wrong with it. */
  constructor(
    readonly reason: string,
    readonly field: string | null = null,
  ) {
    super(field ? fieldMessage(field, reason) : reason);
  }
}

export class InvalidStateError extends DomainError {
  readonly code = "INVALID_STATE";
}
export class UnauthenticatedError extends DomainError {
  readonly code = "UNAUTHENTICATED";
}
export class InvalidCredentialsError extends DomainError {
  readonly code = "INVALID_CREDENTIALS";
}
export class ForbiddenError extends DomainError {
  readonly code = "FORBIDDEN";
}
export class AccountDisabledError extends DomainError {
  readonly code = "ACCOUNT_DISABLED";
}
export class NotFoundError extends DomainError {
  readonly code = "NOT_FOUND";
}
export class ConflictError extends DomainError {
  readonly code = "CONFLICT";
}
export class PayloadTooLargeError extends DomainError {
  readonly code = "PAYLOAD_TOO_LARGE";
}
export class RateLimitError extends DomainError {
  readonly code = "RATE_LIMITED";
  /** Whole seconds until trying again makes sense (the Retry-After header). */
  constructor(
    message: string,
    readonly retryAfterS: number,
  ) {
    super(message);
  }
}
export class NoDriversAvailableError extends DomainError {
  readonly code = "NO_DRIVERS_AVAILABLE";
}
/** A driver who owes the platform more than the limit may not go online until they pay. */
export class DebtLimitError extends DomainError {
  readonly code = "DEBT_LIMIT";
}
export class UpstreamError extends DomainError {
  readonly code = "UPSTREAM_UNAVAILABLE";
}

/** Every concrete error class, for the GraphQL layer to register. */
export const DOMAIN_ERRORS = [
  ValidationError,
  InvalidStateError,
  UnauthenticatedError,
  InvalidCredentialsError,
  ForbiddenError,
  AccountDisabledError,
  NotFoundError,
  ConflictError,
  PayloadTooLargeError,
  RateLimitError,
  NoDriversAvailableError,
  DebtLimitError,
  UpstreamError,
] as const;
