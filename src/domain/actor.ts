import type { UserType } from "./user-types.js";
import { ForbiddenError, NotFoundError, UnauthenticatedError } from "./errors.js";

/**
 * Who is calling, as the transport established it. Every operation that is not public takes one
 * and checks it against the rule its area declares (see each area's access.ts).
 */
export type Actor = Anonymous | Member | Unnamed;

/** Nobody signed in. `refused` says why a token that was sent did not count. */
export interface Anonymous {
  kind: "anonymous";
  address: string | null;
  refused?: string;
}

/** A user: proven by a session token, or (LEGACY_AUTH=ids) the id a legacy call carries. */
export interface Member {
  kind: "member";
  id: number;
  /** null when a legacy call names an id that belongs to nobody. */
  role: UserType | null;
  /** An administrator whose account is in good standing. */
  admin: boolean;
  via: "token" | "ids";
  /** The session behind a token, so that revoking or expiring it can end what it opened. */
  session: { id: number; expiresAt: Date } | null;
  /** An administrator acting for this user through a legacy call that names them. */
  actingAdminId: number | null;
  address: string | null;
}

/**
 * A legacy call that names nobody under LEGACY_AUTH=ids (start_trip, aprobar_conductor, …). The
 * specification trusts such calls, so the rules that allow them say so explicitly.
 */
interface Unnamed {
  kind: "unnamed";
  address: string | null;
}

export const anonymous = (address: string | null = null, refused?: string): Anonymous => ({ kind: "anonymous", address, refused });

/** A rule: who may do something to a target, and how a refusal is worded. */
export interface Rule<T = void> {
  allows(actor: Actor, target: T): boolean;
  refusal(target: T): string;
}

export const rule = <T = void>(refusal: string | ((target: T) => string), allows: (actor: Actor, target: T) => boolean): Rule<T> => ({
  allows,
  refusal: typeof refusal === "string" ? () => refusal : refusal,
});

const SIGN_IN = "Inicia sesión y envía el token en la cabecera Authorization: Bearer <token>";

/** What nobody signed in is told: why their token did not count, or that they need one. */
export const signInRequired = (actor: Anonymous) => new UnauthenticatedError(actor.refused ?? SIGN_IN);

/** Throws unless the rule allows the actor: 401 for nobody, 403 for somebody not allowed. */
export function authorize<T>(actor: Actor, check: Rule<T>, target: T): void;
export function authorize(actor: Actor, check: Rule<void>): void;
export function authorize<T>(actor: Actor, check: Rule<T>, target?: T): void {
  if (check.allows(actor, target as T)) return;
  if (actor.kind === "anonymous") throw signInRequired(actor);
  if (actor.kind === "unnamed") throw new UnauthenticatedError("Esta llamada debe indicar quién la hace");
  throw new ForbiddenError(check.refusal(target as T));
}

/** The user an operation acts for, once `check` (by default: somebody is signed in) allows them. */
export function member(actor: Actor, check: Rule<void> = signedIn): Member {
  authorize(actor, check);
  if (!isMember(actor)) throw new UnauthenticatedError(SIGN_IN);
  return actor;
}

/**
 * The person whose own records an operation handles (contacts, links, places): the caller, once
 * `check` allows them, who must exist (a legacy id may name nobody).
 */
export function owner(actor: Actor, check: Rule<void> = signedIn): Member {
  const me = member(actor, check);
  if (me.role === null) throw new NotFoundError(`No existe un usuario con id ${me.id}`);
  return me;
}

// The building blocks the areas' rules are written with.
export function isMember(actor: Actor): actor is Member {
  return actor.kind === "member";
}
export const isAdmin = (actor: Actor) => isMember(actor) && actor.admin;
export const isUnnamedLegacy = (actor: Actor) => actor.kind === "unnamed";
export const isUser = (actor: Actor, userId: number | null) => isMember(actor) && userId !== null && actor.id === userId;

export const signedIn = rule<void>("Inicia sesión para hacer esto", isMember);
export const ADMINS_ONLY = "Esta operación es solo para administradores";
export const adminOnly = rule(ADMINS_ONLY, isAdmin);
/** The specification's suspend, activate, approve and reject calls carry no admin_id: under LEGACY_AUTH=ids they are trusted. */
export const adminOrUnnamedLegacy = rule<void>(ADMINS_ONLY, (actor) => isAdmin(actor) || isUnnamedLegacy(actor));

/**
 * Actors with the same key are allowed the same things and see the same fields: no rule tells one
 * administrator from another, and every other member's rules turn on their own id.
 */
export function visibilityKey(actor: Actor): string {
  if (actor.kind === "anonymous") return "anonimo";
  if (actor.kind === "unnamed") return "sin-nombre";
  return actor.admin === true ? "administrador" : `usuario:${actor.id}`;
}

/** The administrator behind an actor, for the audit log: null when a legacy call named nobody. */
export const responsibleAdmin = (actor: Actor) => (isMember(actor) ? (actor.actingAdminId ?? actor.id) : null);
