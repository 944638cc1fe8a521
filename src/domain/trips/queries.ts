import type { TripSelection } from "../../db/models.js";
import { authorize, member, type Actor } from "../actor.js";
import type { Deps } from "../deps.js";
import { NotFoundError } from "../errors.js";
import { positiveId, fieldParser } from "../validation.js";
import { TRIP_RULES } from "./access.js";
import { ACTIVE_STATES, FINAL_STATES } from "../trip-states.js";

const parseTripId = fieldParser("trip_id", positiveId());

export async function getTrip(deps: Pick<Deps, "reads">, id: unknown, selection: TripSelection = {}) {
  const tripId = parseTripId(id);
  const trip = await deps.reads.trip.findUnique({ ...selection, where: { id: tripId } });
  if (!trip) throw new NotFoundError(`No existe un viaje con id ${tripId}`);
  return trip;
}

/** A trip, for someone allowed to see it. */
export async function viewTrip(deps: Deps, actor: Actor, id: unknown, selection: TripSelection = {}) {
  const trip = await getTrip(deps, id, selection);
  authorize(actor, TRIP_RULES.view, trip);
  return trip;
}

/** A trip as its driver's records show it, for its driver and administrators. */
export async function driverTrip(deps: Deps, actor: Actor, id: unknown, selection: TripSelection = {}) {
  const trip = await getTrip(deps, id, selection);
  authorize(actor, TRIP_RULES.driverRecord, trip);
  return trip;
}

export type TripRole = "pasajero" | "conductor";
export type TripScope = "activos" | "historial";

/** A passenger's or driver's trips, active or finished, newest first; no paging (docs/legacy-api.md). */
export async function listTrips(deps: Deps, actor: Actor, role: TripRole, scope: TripScope, selection: TripSelection = {}) {
  const { id: userId, role: userRole } = member(actor);
  // The actor already says who the user is: a role of null is an id of nobody.
  if (userRole === null) throw new NotFoundError(`No existe un usuario con id ${userId}`);
  if (role === "conductor" && userRole !== "conductor") throw new NotFoundError(`No existe un conductor con id ${userId}`);
  const states: readonly string[] = scope === "activos" ? ACTIVE_STATES : FINAL_STATES;
  return deps.reads.trip.findMany({
    ...selection,
    where: { [role === "pasajero" ? "usuario_id" : "conductor_id"]: userId, estado: { in: [...states] } },
    orderBy: [{ fecha_solicitud: "desc" }, { id: "desc" }],
  });
}
