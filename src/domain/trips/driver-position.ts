import type { Trip } from "../../db/models.js";
import type { Actor } from "../actor.js";
import type { Deps } from "../deps.js";
import { currentStatus } from "../drivers/availability.js";
import type { Point } from "../geo.js";
import { ASSIGNED_STATES } from "../trip-states.js";
import { TRIP_RULES } from "./access.js";

/**
 * Where the driver of a trip is while they are on it (accepted, on the way, carrying the
 * passenger), for those who may follow the trip; null before a driver takes it, once it ends, and
 * for anyone else.
 */
export async function assignedDriverPosition(deps: Deps, actor: Actor, trip: Trip): Promise<Point | null> {
  const onIt = trip.conductor_id !== null && (ASSIGNED_STATES as readonly string[]).includes(trip.estado);
  if (!onIt || !TRIP_RULES.follow.allows(actor, trip)) return null;
  const { latitud, longitud } = await currentStatus(deps, trip.conductor_id!);
  return latitud === null || longitud === null ? null : { latitud, longitud };
}
