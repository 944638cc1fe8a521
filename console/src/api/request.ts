import type { TypedDocumentString } from "../gql/graphql";
import { session } from "../auth/session";

/** A failure the operator should read: the API's own Spanish message. */
export class ApiError extends Error {}

export const SESSION_ENDED = "Tu sesión terminó o fue cerrada. Inicia sesión de nuevo.";

interface GraphQLResponse<R> {
  data?: R | null;
  errors?: { message: string; extensions?: { code?: string } }[];
}

/**
 * Runs one operation over HTTP against /graphql with the session's token. A token the API no
 * longer accepts ends the session, which sends the operator back to the sign-in page.
 */
export async function request<R, V>(document: TypedDocumentString<R, V>, variables: V, token = session.token()): Promise<R> {
  let response: Response;
  try {
    response = await fetch("/graphql", {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/graphql-response+json, application/json",
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: JSON.stringify({ query: String(document), variables }),
    });
  } catch {
    throw new ApiError("No se pudo conectar con el servidor. Revisa tu conexión e inténtalo de nuevo.");
  }
  const body = (await response.json().catch(() => ({}))) as GraphQLResponse<R>;
  const error = body.errors?.[0];
  if (error?.extensions?.code === "UNAUTHENTICATED" || response.status === 401) {
    if (token && token === session.token()) session.end(SESSION_ENDED);
    throw new ApiError(error?.message ?? SESSION_ENDED);
  }
  if (error) throw new ApiError(error.message);
  if (!body.data) throw new ApiError(`El servidor respondió ${response.status} sin datos. Inténtalo de nuevo.`);
  return body.data;
}
