import type { Trip } from "../../db/models.js";
import type { Deps } from "../deps.js";
import { TRANSITIONS } from "../trip-states.js";

/** Every date a change of state sets on a trip. */
const CHANGE_DATES = [...new Set(Object.values(TRANSITIONS).map((transition) => transition.date))];

/** The trips with these ids whose state changed since `since`, as they stand now. */
export function tripsChangedSince(deps: Deps, ids: number[], since: Date): Promise<Trip[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return deps.db.trip.findMany({
    where: { id: { in: ids }, OR: CHANGE_DATES.map((date) => ({ [date]: { gte: since } })) },
  });
}

/**
 * Requests offered to these drivers (since `since`, or ever) that are still pending and that they
 * have not turned down, with the driver each went to.
 */
export async function openOffers(deps: Deps, driverIds: number[], since?: Date): Promise<Array<{ conductor_id: number; viaje: Trip }>> {
  if (driverIds.length === 0) return [];
  return deps.db.tripOffer.findMany({
    where: { conductor_id: { in: driverIds }, respuesta: null, mostrada_en: since && { gte: since }, viaje: { estado: "pendiente" } },
    select: { conductor_id: true, viaje: true },
    orderBy: { mostrada_en: "asc" },
  });
}
