import type { Trip } from "../../db/models.js";
import type { Deps } from "../deps.js";

/** A trip as it is after a change: to those following it, and to the administrators' live view. */
export function announceTrip(deps: Deps, trip: Trip): void {
  deps.events.publish("viaje", trip.id, trip);
  deps.events.publish("viajes", trip);
}

/** A trip just requested: only the live view can be listening, since nobody follows a trip before it exists. */
export function announceNewTrip(deps: Deps, trip: Trip): void {
  deps.events.publish("viajes", trip);
}
