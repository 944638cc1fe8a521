import type { Reservation } from "../../db/models.js";
import { isAdmin, isMember, isUser, rule, signedIn, type Actor } from "../actor.js";

const passenger = (actor: Actor, booking: Reservation) => isUser(actor, booking.usuario_id);
const committed = (actor: Actor, booking: Reservation) => isUser(actor, booking.conductor_id);
const isDriver = (actor: Actor) => isMember(actor) && actor.role === "conductor";

/** Who may do what with a booked trip (a reservation). */
export const RESERVATION_RULES = {
  /** Passengers book for themselves. */
  book: signedIn,
  /** Its passenger, the driver committed to it and administrators see all of it (the driver: not who the passenger is). */
  view: rule<Reservation>(
    (booking) => `Solo el pasajero, el conductor comprometido o un administrador pueden ver la reserva ${booking.id}`,
    (actor, booking) => passenger(actor, booking) || committed(actor, booking) || isAdmin(actor),
  ),
  /** Changing the time or the places: its passenger. */
  change: rule<Reservation>(
    (booking) => `Solo el pasajero puede cambiar la reserva ${booking.id}`,
    (actor, booking) => passenger(actor, booking),
  ),
  /** Its passenger, or an administrator (who says why, in the audit log). */
  cancel: rule<Reservation>(
    (booking) => `Solo el pasajero o un administrador pueden cancelar la reserva ${booking.id}`,
    (actor, booking) => passenger(actor, booking) || isAdmin(actor),
  ),
  /** Drivers browse the reservations near them (the pickup area, never the passenger) and commit to one. */
  drive: rule<void>("Solo los conductores ven y toman reservas", isDriver),
  /** Every reservation, for the console: administrators. */
  search: rule<void>("Solo los administradores ven todas las reservas", isAdmin),
};
