import { z } from "zod";
import { member, type Actor } from "../actor.js";
import type { Deps } from "../deps.js";
import { DRIVER_RULES } from "../drivers/access.js";
import { closeOnlinePeriod, openOnlinePeriod } from "../drivers/availability.js";
import { assertCanOperate, loadDriver } from "../drivers/readiness.js";
import { ASSIGNED_STATES } from "../trips/states.js";
import { latitude, longitude, missingOr, optional, parseInput, type Raw } from "../validation.js";

const locationSchema = z.object({
  latitud: latitude(),
  longitud: longitude(),
  disponibilidad: optional(z.union([z.literal(0), z.literal(1)], { error: missingOr("debe ser 1 (en línea) o 0 (fuera de línea)") })),
});

/**
 * A driver's phone reports where it is (about every 10 s) and whether the driver wants trips.
 * The position is kept in the database and announced to every process's geo index and to
 * whoever follows the driver's current trip. A driver busy with a trip stays unavailable
 * whatever the phone says; going online needs the driver to be allowed to operate.
 */
export async function updateDriverLocation(deps: Deps, actor: Actor, input: Raw<typeof locationSchema>) {
  const driverId = member(actor, DRIVER_RULES.edit).id;
  const { latitud, longitud, disponibilidad } = parseInput(locationSchema, input);
  const driver = await loadDriver(deps.db, driverId);
  const now = deps.clock.now();
  const activeTrip = await deps.db.trip.findFirst({
    where: { conductor_id: driverId, estado: { in: [...ASSIGNED_STATES] } },
    select: { id: true },
  });
  const wasOnline = driver.estado?.disponible ?? false;
  const online = (disponibilidad === undefined ? wasOnline : disponibilidad === 1) && !activeTrip;
  if (online) assertCanOperate(driver, now);

  const status = await deps.db.$transaction(async (tx) => {
    const position = { disponible: online, latitud, longitud, posicion_en: now };
    const saved = await tx.driverStatus.upsert({
      where: { conductor_id: driverId },
      create: { conductor_id: driverId, ...position },
      update: position,
    });
    if (online && !wasOnline) await openOnlinePeriod(tx, driverId, now);
    if (!online && wasOnline) await closeOnlinePeriod(tx, driverId, now);
    return saved;
  });

  const event = { conductor_id: driverId, latitud, longitud, disponible: online, at: now };
  deps.events.publish("posicion_conductor", event);
  if (activeTrip) deps.events.publish("ubicacion_viaje", activeTrip.id, event);
  return { ...status, viaje_activo_id: activeTrip?.id ?? null };
}
