import { insertOffers } from "../../db/batches.js";
import type { Trip } from "../../db/models.js";
import type { Deps } from "../deps.js";
import type { Point } from "../geo.js";
import { VEHICLE_FOR_SERVICE, type ServiceType } from "../service-types.js";
import { eligibleFor } from "./eligibility.js";
import { tripOrigin } from "./requests.js";

/** Due trips one pass claims at most; the rest wait for the next pass, which follows at once. */
const BATCH = 500;

/** The nearest eligible drivers for a pickup who have not been offered it yet, at most one wave of them. */
export function nextWave(deps: Deps, pickup: Point, serviceType: ServiceType, offered: ReadonlySet<number> = new Set()): number[] {
  const query = { ...eligibleFor(deps, VEHICLE_FOR_SERVICE[serviceType]), limit: deps.matching.waveSize, exclude: offered };
  return deps.matching.presence.index.nearest(pickup, query);
}

/** When the wave after one sent at `sentAt` is due. */
export const nextWaveDue = (deps: Deps, sentAt: Date): Date => new Date(sentAt.getTime() + deps.matching.waveMs);

/** Pushes a request to a wave of drivers, whose offers are already recorded. */
export function announceWave(deps: Deps, trip: Trip, wave: number[]): void {
  for (const conductorId of wave) deps.events.publish("solicitud_viaje", conductorId, { tipo: "nueva", viaje: trip });
}

/** The drivers each trip was offered to, by trip. */
async function offeredTo(deps: Deps, tripIds: number[]): Promise<Map<number, Set<number>>> {
  const offers = await deps.db.tripOffer.findMany({
    where: { viaje_id: { in: tripIds } },
    select: { viaje_id: true, conductor_id: true },
  });
  const offered = new Map<number, Set<number>>();
  for (const { viaje_id, conductor_id } of offers) {
    if (!offered.has(viaje_id)) offered.set(viaje_id, new Set());
    offered.get(viaje_id)!.add(conductor_id);
  }
  return offered;
}

/**
 * Sends the next wave of pending requests whose wave is due (trip.proxima_ola), in a few
 * statements however many trips there are; true when more may be due than one pass takes.
 *
 * Any process may run it at any time. A trip is sent by the process whose claim wins it: a
 * conditional update that moves its due time to the end of a lease of `leaseMs`, so only one of
 * them can. What that process sends is committed only while its claim still holds and the trip is
 * still pending, and sets the next due time (or clears it when nobody within reach is left); a
 * process that dies mid-wave therefore leaves the trip due again once the lease ends, and one that
 * outlives its lease sends nothing, since whoever claimed after it sends that wave.
 */
export async function sendDueWaves(deps: Deps, leaseMs: number): Promise<boolean> {
  const { db, clock } = deps;
  const now = clock.now();
  const due = { estado: "pendiente", proxima_ola: { lte: now } };
  const found = await db.trip.findMany({ where: due, select: { id: true }, orderBy: { proxima_ola: "asc" }, take: BATCH });
  if (found.length === 0) return false;
  const claim = new Date(now.getTime() + leaseMs);
  // The update checks again that each trip is due: of several processes, one claims it.
  const claimed = await db.trip.updateManyAndReturn({
    where: { id: { in: found.map((trip) => trip.id) }, ...due },
    data: { proxima_ola: claim },
  });
  if (claimed.length === 0) return found.length === BATCH;

  // Drivers who saw a trip in their list of requests count as offered too.
  const offered = await offeredTo(
    deps,
    claimed.map((trip) => trip.id),
  );
  const waves = claimed.map((trip) => ({
    trip,
    next: nextWave(deps, tripOrigin(trip), trip.tipo_servicio as ServiceType, offered.get(trip.id)),
  }));
  // Nobody left to offer it to ends its waves, unless this process may not know every driver yet.
  const over = ({ next }: { next: number[] }) => next.length === 0 && deps.matching.presence.complete;
  const going = waves.filter((wave) => !over(wave));
  const done = waves.filter(over).map(({ trip }) => trip.id);
  const sentAt = clock.now();
  // Taken, cancelled, or claimed by another process once this claim lapsed: left alone.
  const held = { estado: "pendiente", proxima_ola: claim };
  const sent = await db.$transaction(async (tx) => {
    if (done.length > 0) await tx.trip.updateMany({ where: { id: { in: done }, ...held }, data: { proxima_ola: null } });
    if (going.length === 0) return [];
    const kept = await tx.trip.updateManyAndReturn({
      where: { id: { in: going.map(({ trip }) => trip.id) }, ...held },
      data: { proxima_ola: nextWaveDue(deps, sentAt) },
      select: { id: true },
    });
    const keptIds = new Set(kept.map((trip) => trip.id));
    const sending = going.filter(({ trip, next }) => keptIds.has(trip.id) && next.length > 0);
    await insertOffers(
      tx,
      deps.provider,
      sending.flatMap(({ trip, next }) => next.map((conductor_id) => ({ viaje_id: trip.id, conductor_id }))),
      sentAt,
    );
    return sending;
  });
  for (const { trip, next } of sent) announceWave(deps, trip, next);
  return found.length === BATCH;
}
