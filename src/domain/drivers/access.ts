import { adminOnly, adminOrUnnamedLegacy, authorize, isAdmin, isUser, member, rule, signedIn, type Actor } from "../actor.js";

/** Who may see and change a driver's records (profile, licence, vehicle, documents, earnings, statistics). */
export const DRIVER_RULES = {
  /** A driver's records and document photos are for the driver and administrators. */
  read: rule<number | null>(
    (conductorId) => `Solo el conductor ${conductorId ?? "dueño"} o un administrador pueden ver estos datos`,
    (actor, conductorId) => isUser(actor, conductorId) || isAdmin(actor),
  ),
  /** Drivers change their own application; the operation acts for whoever calls. */
  edit: signedIn,
  pending: adminOnly,
  review: adminOrUnnamedLegacy,
};

/** The driver a read is about, once the actor may see it: the caller, or another driver when an administrator asks. */
export function subjectDriver(actor: Actor, conductorId?: number | null): number {
  const subject = conductorId ?? member(actor).id;
  authorize(actor, DRIVER_RULES.read, subject);
  return subject;
}
