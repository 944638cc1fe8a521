import { writePositions } from "../../db/batches.js";
import { ifUndone } from "../../db/unit.js";
import type { Db, Tx } from "../../db/client.js";
import type { Deps } from "../deps.js";
import { DRIVER_WITH_DOCUMENTS, findDriver, operableUntil, type LoadedDriver } from "../drivers/readiness.js";
import type { EventMap } from "../events.js";
import { ASSIGNED_STATES } from "../trip-states.js";
import type { VehicleType } from "../service-types.js";
import type { PositionReport, Presence } from "../presence/presence.js";

/** The trip a driver is assigned to and has not finished, if any. */
export const activeTripOf = (db: Db | Tx, conductorId: number) =>
  db.trip.findFirst({ where: { conductor_id: conductorId, estado: { in: [...ASSIGNED_STATES] } }, select: { id: true } });

/**
 * What to know about a driver from their rows: free for trips when online and allowed to operate,
 * known while on a trip; nobody to know otherwise (offline, or not allowed to work).
 */
export function presenceOf(driver: LoadedDriver, activeTripId: number | null, now: Date): Presence | null {
  const status = driver.estado;
  const tipo = driver.vehiculo?.tipo as VehicleType | undefined;
  const until = operableUntil(driver, now);
  const disponible = Boolean(status?.disponible) && activeTripId === null && until !== null;
  if (!tipo || (!disponible && activeTripId === null)) return null;
  const posicion =
    status?.latitud != null && status.longitud != null && status.posicion_en
      ? { latitud: status.latitud, longitud: status.longitud, at: status.posicion_en }
      : null;
  return {
    conductor_id: driver.conductor_id,
    tipo_vehiculo: tipo,
    apto_hasta: until ?? now,
    disponible,
    viaje_activo_id: activeTripId,
    posicion,
  };
}

/** Applies what was decided about a driver here, and tells every other process. */
export function announcePresence(deps: Deps, conductorId: number, presencia: Presence | null): void {
  const { presence } = deps.matching;
  presence.decide(conductorId, presencia);
  // Decided on the strength of a change that may yet be undone: then forgotten, and the driver's next ping decides.
  ifUndone(() => presence.decide(conductorId, null));
  deps.events.publish("presencia_conductor", { origen: presence.origin, conductor_id: conductorId, presencia });
}

/** A known driver's new position: this process has it at once, the others and the database with the next batches. */
export const notePosition = (deps: Deps, posicion: PositionReport) => deps.matching.presence.move(posicion, true);

/** How often positions heard here go to the other processes: how far behind their indexes may be. */
export const POSITION_ANNOUNCE_MS = 200;

/** Tells the other processes the positions heard here since the last time, in one event. */
export function announcePositions(deps: Deps): void {
  const { presence } = deps.matching;
  const posiciones = presence.takeUnannounced();
  if (posiciones.length > 0) deps.events.publish("posicion_conductor", { origen: presence.origin, posiciones });
}

/**
 * Decides again, from the database, what to know about a driver: after an approval, a document
 * change, a suspension or a trip, anything that may change whether they can take trips.
 */
export async function refreshPresence(deps: Deps, conductorId: number): Promise<void> {
  const [driver, trip] = await Promise.all([findDriver(deps.db, conductorId), activeTripOf(deps.db, conductorId)]).catch((error) => {
    // What was known is stale now (the database failed once the change was made): forgotten on
    // every process, the driver's next ping decides again.
    announcePresence(deps, conductorId, null);
    throw error;
  });
  announcePresence(deps, conductorId, driver ? presenceOf(driver, trip?.id ?? null, deps.clock.now()) : null);
}

/** Every driver online or on a trip, as the database has them: what a process starts with. */
export async function loadPresences(deps: Deps): Promise<void> {
  const drivers = await deps.db.driverProfile.findMany({
    where: {
      conductor: { tipo_usuario: "conductor" },
      OR: [
        { estado: { is: { disponible: true } } },
        { conductor: { viajes_conductor: { some: { estado: { in: [...ASSIGNED_STATES] } } } } },
      ],
    },
    include: DRIVER_WITH_DOCUMENTS,
  });
  // Every trip under way, rather than those of the drivers above: a list of thousands of ids
  // would exceed SQLite's limit on a statement's parameters.
  const trips = await deps.db.trip.findMany({ where: { estado: { in: [...ASSIGNED_STATES] } }, select: { id: true, conductor_id: true } });
  const tripOf = new Map(trips.map((t) => [t.conductor_id, t.id]));
  const now = deps.clock.now();
  for (const driver of drivers)
    deps.matching.presence.decide(driver.conductor_id, presenceOf(driver, tripOf.get(driver.conductor_id) ?? null, now));
  deps.matching.presence.loaded();
}

/** Keeps this process's copy current with what other processes decide and hear; runs until `stop`. */
export function followPresences(deps: Deps): { stop: () => Promise<void> } {
  const { presence } = deps.matching;
  const decisions = deps.events.subscribe("presencia_conductor");
  const positions = deps.events.subscribe("posicion_conductor");
  const follow = async <T extends { origen: string }>(events: AsyncIterable<T>, apply: (event: T) => void) => {
    for await (const event of events) if (event.origen !== presence.origin) apply(event);
  };
  const done = [
    follow<EventMap["presencia_conductor"][0]>(decisions, (e) => presence.decide(e.conductor_id, e.presencia)),
    follow<EventMap["posicion_conductor"][0]>(positions, (e) => {
      for (const position of e.posiciones) presence.move(position, false);
    }),
  ].map((loop) => loop.catch((error) => deps.log.error({ err: error }, "stopped following driver presence")));
  return {
    stop: async () => {
      await Promise.all([decisions.return?.(), positions.return?.()]);
      await Promise.all(done);
    },
  };
}

/** Stores the positions this process heard since the last batch; if the database fails, they wait for the next. */
export async function savePositions(deps: Deps): Promise<void> {
  const { presence } = deps.matching;
  const batch = presence.takeUnsaved();
  try {
    await writePositions(deps.db, deps.provider, batch);
  } catch (error) {
    presence.keepUnsaved(batch);
    throw error;
  }
}
