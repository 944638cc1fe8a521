import type { Deps } from "../deps.js";
import { ForbiddenError } from "../errors.js";
import { getTrip } from "./queries.js";
import { isAdmin } from "../accounts/access.js";

/** Live trip updates are for the trip's passenger, its driver and administrators. */
export async function assertCanWatchTrip(deps: Deps, callerId: number, tripId: unknown) {
  const trip = await getTrip(deps, tripId);
  if (trip.usuario_id === callerId || trip.conductor_id === callerId) return trip;
  if (await isAdmin(deps.db, callerId)) return trip;
  throw new ForbiddenError(`Solo el pasajero, el conductor o un administrador pueden seguir el viaje ${trip.id}`);
}
