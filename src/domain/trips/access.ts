import type { Trip } from "../../db/models.js";
import { adminOnly, isAdmin, isMember, isUnnamedLegacy, isUser, rule, signedIn, type Actor } from "../actor.js";

const passenger = (actor: Actor, trip: Trip) => isUser(actor, trip.usuario_id);
const driver = (actor: Actor, trip: Trip) => isUser(actor, trip.conductor_id);

/**
 * Who may do what with a trip. Legacy calls that name nobody (LEGACY_AUTH=ids) are trusted
 * where the specification's call carries no id: reading, starting, completing, cancelling, rating.
 */
export const TRIP_RULES = {
  /** Passengers request trips for themselves; drivers act on requests as themselves. */
  request: signedIn,
  /** Every trip, searched and listed: administrators. */
  search: adminOnly,
  /** The passenger, the assigned driver, an administrator; any driver while the trip is still an open request. */
  view: rule<Trip>(
    (trip) => `Solo el pasajero, el conductor o un administrador pueden ver el viaje ${trip.id}`,
    (actor, trip) =>
      passenger(actor, trip) ||
      driver(actor, trip) ||
      isAdmin(actor) ||
      isUnnamedLegacy(actor) ||
      (trip.estado === "pendiente" && isMember(actor) && actor.role === "conductor"),
  ),
  /** Live updates, and the accounts of who is on the trip: the passenger, the assigned driver and administrators. */
  follow: rule<Trip>(
    (trip) => `Solo el pasajero, el conductor o un administrador pueden seguir el viaje ${trip.id}`,
    (actor, trip) => passenger(actor, trip) || driver(actor, trip) || isAdmin(actor),
  ),
  /** A trip among a driver's own records (its detail in their history): its driver and administrators. */
  driverRecord: rule<Trip>(
    (trip) => `Solo el conductor del viaje ${trip.id} o un administrador pueden ver su detalle`,
    (actor, trip) => driver(actor, trip) || isAdmin(actor),
  ),
  /** Where a fare went (the platform's commissions and the percentages the trip was priced with): administrators. */
  fareSplit: rule<Trip>("Solo los administradores ven cómo se reparte la tarifa de un viaje", (actor) => isAdmin(actor)),
  startRoute: rule<Trip>(
    (trip) => `Solo el conductor asignado puede salir hacia el viaje ${trip.id}`,
    (actor, trip) => driver(actor, trip),
  ),
  start: rule<Trip>(
    (trip) => `Solo el conductor asignado puede iniciar el viaje ${trip.id}`,
    (actor, trip) => driver(actor, trip) || isUnnamedLegacy(actor),
  ),
  complete: rule<Trip>(
    (trip) => `Solo el conductor asignado puede completar el viaje ${trip.id}`,
    (actor, trip) => driver(actor, trip) || isUnnamedLegacy(actor),
  ),
  cancel: rule<Trip>(
    (trip) => `Solo el pasajero, el conductor asignado o un administrador pueden cancelar el viaje ${trip.id}`,
    (actor, trip) => passenger(actor, trip) || driver(actor, trip) || isAdmin(actor) || isUnnamedLegacy(actor),
  ),
  rateDriver: rule<Trip>(
    (trip) => `Solo el pasajero del viaje ${trip.id} puede calificar al conductor`,
    (actor, trip) => passenger(actor, trip) || isUnnamedLegacy(actor),
  ),
  /** Asking to change the destination or the stops during the ride: the trip's passenger. */
  change: rule<Trip>(
    (trip) => `Solo el pasajero del viaje ${trip.id} puede pedir cambiarlo`,
    (actor, trip) => passenger(actor, trip),
  ),
  /** The start PIN, and confirming the start in the app instead of it: the trip's passenger alone. */
  startPin: rule<Trip>(
    (trip) => `Solo el pasajero del viaje ${trip.id} puede ver su PIN o confirmar su inicio`,
    (actor, trip) => passenger(actor, trip),
  ),
  ratePassenger: rule<Trip>(
    (trip) => `Solo el conductor del viaje ${trip.id} puede calificar al pasajero`,
    (actor, trip) => driver(actor, trip) || isUnnamedLegacy(actor),
  ),
};
