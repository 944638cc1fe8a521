import { request } from "../api/request";
import { session } from "../auth/session";
import { CerrarSesionDocument } from "../gql/graphql";

/** Revokes a token on the server; what it answers changes nothing for the operator, who asked to leave. */
export const revoke = (token: string) => request(CerrarSesionDocument, {}, token).catch(() => undefined);

/** Revokes the session's token, then forgets it here whatever the answer. */
export async function signOut() {
  const token = session.token();
  if (token) await revoke(token);
  session.end();
}
