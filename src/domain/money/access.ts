import { ADMINS_ONLY, authorize, isAdmin, isMember, isUser, member, rule, type Actor, type Member } from "../actor.js";
import { companyInScope, managersCompany } from "../company-scope.js";
import type { Deps } from "../deps.js";
import { UnauthenticatedError } from "../errors.js";
import { companyHolder, driverHolder, type Holder } from "./holders.js";

/** Money follows only a caller proven by a session token: an id a legacy call carries (LEGACY_AUTH=ids) never moves or shows it. */
const proven = (actor: Actor) => isMember(actor) && actor.via === "token";
const isDriver = (actor: Actor) => isMember(actor) && actor.role === "conductor";
const TOKEN = "Inicia sesión (Authorization: Bearer) para ver o mover dinero";

/** Who may see and move a driver's money: balances, movements, payouts and where they are paid. */
export const MONEY_RULES = {
  /** A driver's own, or any driver's for an administrator. */
  read: rule<number>(
    (conductorId) => `Solo el conductor ${conductorId} o un administrador, con sesión iniciada, pueden ver su dinero`,
    (actor, conductorId) => proven(actor) && ((isUser(actor, conductorId) && isDriver(actor)) || isAdmin(actor)),
  ),
  /** Asking to be paid, and saying where: the driver themselves. */
  own: rule<void>(
    "Solo el conductor mismo, con sesión iniciada, puede hacer esto",
    // An administrator acting for a driver through a legacy call does not ask for the driver's money.
    (actor) => proven(actor) && isDriver(actor) && isMember(actor) && actor.actingAdminId === null,
  ),
  /**
   * A company's payout account whole: administrators and company managers, since every way to a
   * company's accounts (payoutAccounts, payouts) is scoped to the manager's own company first.
   */
  wholeCompanyAccount: rule<void>(
    ADMINS_ONLY,
    (actor) => proven(actor) && (isAdmin(actor) || (isMember(actor) && actor.role === "empresa")),
  ),
  /** Reviewing and paying payouts, verifying accounts, deposits and adjustments. */
  operate: rule<void>(ADMINS_ONLY, (actor) => proven(actor) && isAdmin(actor)),
};

/** A legacy caller named only by an id is told to sign in, rather than refused as somebody else. */
function requireToken(actor: Actor): void {
  if (isMember(actor) && actor.via !== "token") throw new UnauthenticatedError(TOKEN);
}

/** The driver whose money a read is about: the caller, or another driver when an administrator asks. */
export function moneySubject(actor: Actor, conductorId?: number | null): number {
  requireToken(actor);
  const subject = conductorId ?? member(actor).id;
  authorize(actor, MONEY_RULES.read, subject);
  return subject;
}

/** The caller, once `check` allows them to move money. */
export function moneyActor(actor: Actor, check: (typeof MONEY_RULES)["own" | "operate"]): Member {
  requireToken(actor);
  return member(actor, check);
}

const isManager = (actor: Actor) => isMember(actor) && actor.role === "empresa";

/** Whose money the caller moves: a driver their own, a company's manager their operating company's. */
export async function callerHolder(deps: Pick<Deps, "db">, actor: Actor): Promise<Holder> {
  requireToken(actor);
  if (isManager(actor)) return companyHolder((await managersCompany(deps, actor)).id);
  return driverHolder(moneyActor(actor, MONEY_RULES.own).id);
}

/**
 * The company whose money a read is about: the calling manager's own, or the one an administrator
 * names. Everyone else is refused, whatever the arguments: a company's read never falls back to
 * the caller's own money.
 */
export async function companyReadHolder(deps: Pick<Deps, "db">, actor: Actor, empresaId?: number | null) {
  requireToken(actor);
  return companyHolder((await companyInScope(deps, actor, empresaId)).id);
}

/**
 * Whose money a read that serves both is about (payouts, payout accounts): a company's when one is
 * named or a manager asks (theirs only), a driver's otherwise (the caller, or the one an
 * administrator names).
 */
export async function readHolder(
  deps: Pick<Deps, "db">,
  actor: Actor,
  named: { conductor_id?: number | null; empresa_id?: number | null },
): Promise<Holder> {
  if (named.empresa_id != null || isManager(actor)) return companyReadHolder(deps, actor, named.empresa_id);
  return driverHolder(moneySubject(actor, named.conductor_id));
}
