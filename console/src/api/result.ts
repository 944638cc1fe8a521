import { session } from "../auth/session";
import { ApiError, SESSION_ENDED } from "./request";

/** A member of an API result union that reports a failure (`ForbiddenError`, `ValidationError`, …). */
type Failure = { __typename: `${string}Error`; message: string };

/** The members of a result union that are not failures. */
export type Success<U> = Exclude<U, { __typename: `${string}Error` }>;

const isFailure = (value: { __typename: string }): value is Failure => value.__typename.endsWith("Error");

/**
 * The success member of a result union, or its failure's message thrown as an ApiError; a session
 * the API no longer accepts ends here too.
 */
export function success<U extends { __typename: string }>(result: U): Success<U> {
  if (!isFailure(result)) return result as Success<U>;
  if (result.__typename === "UnauthenticatedError") {
    session.end(SESSION_ENDED);
    throw new ApiError(SESSION_ENDED);
  }
  throw new ApiError(result.message);
}
