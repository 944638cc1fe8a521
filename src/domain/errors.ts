/**
 * Domain errors. Each has a stable code; the code decides the HTTP status the legacy shim answers
 * with (spec section 7). Messages are Spanish and meant for end users.
 */
export const ERROR_STATUS = {
  VALIDATION: 400,
  INVALID_STATE: 400,
  UNAUTHENTICATED: 401,
  INVALID_CREDENTIALS: 401,
  FORBIDDEN: 403,
  ACCOUNT_DISABLED: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  RATE_LIMITED: 429,
  // A business refusal that legacy clients expect as HTTP 200 with success false.
  NO_DRIVERS_AVAILABLE: 200,
  UPSTREAM_UNAVAILABLE: 500,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export abstract class DomainError extends Error {
  abstract readonly code: ErrorCode;
  get status(): number {
    return ERROR_STATUS[this.code];
  }
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
  UpstreamError,
] as const;
