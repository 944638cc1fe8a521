import type { ErrorCode } from "../domain/errors.js";

/** The HTTP status of each domain error where a request fails as a whole (GraphQL transport errors, document links). */
export const HTTP_STATUS: Record<ErrorCode, number> = {
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
  NO_DRIVERS_AVAILABLE: 409,
  DEBT_LIMIT: 403,
  UPSTREAM_UNAVAILABLE: 502,
};
