import { adminOnly, adminOrUnnamedLegacy, isAdmin, isUser, rule, signedIn } from "../actor.js";

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
