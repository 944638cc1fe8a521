import { insertOffers } from "../../db/batches.js";
import type { Trip } from "../../db/models.js";
import type { Deps } from "../deps.js";
import type { Point } from "../maps/geo.js";
import { VEHICLE_FOR_SERVICE, type ServiceType } from "../trips/service-types.js";
import { eligibleFor } from "./eligibility.js";
import { tripOrigin } from "./requests.js";

/** The nearest eligible drivers for a pickup who have not been offered it yet, at most one wave of them. */
export function nextWave(deps: Deps, pickup: Point, serviceType: ServiceType, offered: ReadonlySet<number> = new Set()): number[] {
  const query = { ...eligibleFor(deps, VEHICLE_FOR_SERVICE[serviceType]), limit: deps.matching.waveSize, exclude: offered };
  return deps.matching.presence.index.nearest(pickup, query).map((d) => d.conductor_id);
}

/**
 * Pushes a new request to a wave of drivers (their offers are already recorded) and, while
 * nobody takes it, to the next nearest wave every `waveMs`, until nobody within reach is left.
 * Drivers who look for requests still see every pending one within reach, waves or not.
 */
export function dispatch(deps: Deps, trip: Trip, wave: number[]): void {
  for (const conductorId of wave) deps.events.publish("solicitud_viaje", conductorId, { tipo: "nueva", viaje: trip });
  deps.later(deps.matching.waveMs, async () => {
    const current = await deps.db.trip.findUnique({ where: { id: trip.id }, select: { estado: true } });
    if (current?.estado !== "pendiente") return;
    // Drivers who saw it in their list of requests count as offered too.
    const offers = await deps.db.tripOffer.findMany({ where: { viaje_id: trip.id }, select: { conductor_id: true } });
    const next = nextWave(deps, tripOrigin(trip), trip.tipo_servicio as ServiceType, new Set(offers.map((o) => o.conductor_id)));
    if (next.length === 0) return;
    await insertOffers(
      deps.db,
      deps.provider,
      next.map((conductor_id) => ({ viaje_id: trip.id, conductor_id })),
      deps.clock.now(),
    );
    dispatch(deps, trip, next);
  });
}
