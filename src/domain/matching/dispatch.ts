import { insertOffers } from "../../db/batches.js";
import type { Trip } from "../../db/models.js";
import type { Deps } from "../deps.js";
import type { Point } from "../maps/geo.js";
import { VEHICLE_FOR_SERVICE, type ServiceType } from "../trips/service-types.js";
import { eligibleFor } from "./eligibility.js";
import { tripOrigin } from "./requests.js";

/**
 * Wave times are rounded up to this step, so that the waves falling due together (every trip
 * created in the same quarter of a second, wave after wave) are sent with one round of statements.
 */
const WAVE_STEP_MS = 250;

/** The nearest eligible drivers for a pickup who have not been offered it yet, at most one wave of them. */
export function nextWave(deps: Deps, pickup: Point, serviceType: ServiceType, offered: ReadonlySet<number> = new Set()): number[] {
  const query = { ...eligibleFor(deps, VEHICLE_FOR_SERVICE[serviceType]), limit: deps.matching.waveSize, exclude: offered };
  return deps.matching.presence.index.nearest(pickup, query);
}

/**
 * Pushes a new request to a wave of drivers (their offers are already recorded) and, while
 * nobody takes it, to the next nearest wave every `waveMs`, until nobody within reach is left.
 * Drivers who look for requests still see every pending one within reach, waves or not.
 */
export function dispatch(deps: Deps, trip: Trip, wave: number[]): void {
  for (const conductorId of wave) deps.events.publish("solicitud_viaje", conductorId, { tipo: "nueva", viaje: trip });
  const due = Math.ceil((Date.now() + deps.matching.waveMs) / WAVE_STEP_MS) * WAVE_STEP_MS;
  const { dueWaves } = deps.matching;
  const together = dueWaves.get(due);
  if (together) {
    together.push(trip);
    return;
  }
  dueWaves.set(due, [trip]);
  deps.later(due - Date.now(), async () => {
    const trips = dueWaves.get(due) ?? [];
    dueWaves.delete(due);
    await sendNextWaves(deps, trips);
  });
}

/** The next wave of each trip still pending, in three statements however many trips there are. */
async function sendNextWaves(deps: Deps, trips: Trip[]): Promise<void> {
  const pending = await deps.db.trip.findMany({
    where: { id: { in: trips.map((trip) => trip.id) }, estado: "pendiente" },
    select: { id: true },
  });
  if (pending.length === 0) return;
  // Drivers who saw a trip in their list of requests count as offered too.
  const offers = await deps.db.tripOffer.findMany({
    where: { viaje_id: { in: pending.map((trip) => trip.id) } },
    select: { viaje_id: true, conductor_id: true },
  });
  const offered = new Map<number, Set<number>>();
  for (const { viaje_id, conductor_id } of offers) {
    if (!offered.has(viaje_id)) offered.set(viaje_id, new Set());
    offered.get(viaje_id)!.add(conductor_id);
  }
  const stillPending = new Set(pending.map((trip) => trip.id));
  const waves = trips
    .filter((trip) => stillPending.has(trip.id))
    .map((trip) => ({ trip, next: nextWave(deps, tripOrigin(trip), trip.tipo_servicio as ServiceType, offered.get(trip.id)) }))
    .filter(({ next }) => next.length > 0);
  if (waves.length === 0) return;
  await insertOffers(
    deps.db,
    deps.provider,
    waves.flatMap(({ trip, next }) => next.map((conductor_id) => ({ viaje_id: trip.id, conductor_id }))),
    deps.clock.now(),
  );
  for (const { trip, next } of waves) dispatch(deps, trip, next);
}
