import { isAdmin, isMember, isUnnamedLegacy, isUser, rule, signedIn } from "../actor.js";

/** Who may do what with accounts. Sign-up, login, e-mail checks and verification codes are public. */
export const ACCOUNT_RULES = {
  /** A profile is read by its owner or an administrator; the specification also trusts a lookup that names nobody. */
  viewProfile: rule<{ id: number }>(
    (user) => `Solo el usuario ${user.id} o un administrador pueden ver este perfil`,
    (actor, user) => isUser(actor, user.id) || isAdmin(actor) || isUnnamedLegacy(actor),
  ),
  /** Profile updates act for whoever calls. */
  own: signedIn,
  /** Password changes and logout need the session they act on. */
  session: rule("Esta operación necesita una sesión iniciada con token", (actor) => isMember(actor) && actor.session !== null),
};
