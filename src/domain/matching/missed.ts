import type { Trip } from "../../db/models.js";
import type { Deps } from "../deps.js";

/** The trips with these ids as they stand now: what their followers would have heard last. */
export function tripsNow(deps: Deps, ids: number[]): Promise<Trip[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return deps.db.trip.findMany({ where: { id: { in: ids } } });
}

/** Requests offered to these drivers since `since` that are still pending, with the driver each went to. */
export async function offersSince(deps: Deps, driverIds: number[], since: Date): Promise<Array<{ conductor_id: number; viaje: Trip }>> {
  if (driverIds.length === 0) return [];
  const offers = await deps.db.tripOffer.findMany({
    where: { conductor_id: { in: driverIds }, mostrada_en: { gte: since }, viaje: { estado: "pendiente" } },
    select: { conductor_id: true, viaje: true },
  });
  return offers;
}
