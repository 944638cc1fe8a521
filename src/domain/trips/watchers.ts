import { authorize, type Actor } from "../actor.js";
import type { Deps } from "../deps.js";
import { TRIP_RULES } from "./access.js";
import { getTrip } from "./queries.js";

/** Live trip updates are for the trip's passenger, its driver and administrators. */
export async function assertCanWatchTrip(deps: Deps, actor: Actor, tripId: unknown) {
  const trip = await getTrip(deps, tripId);
  authorize(actor, TRIP_RULES.follow, trip);
  return trip;
}
