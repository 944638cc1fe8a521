import { z } from "zod";
import { member, type Actor } from "../actor.js";
import type { Deps } from "../deps.js";
import { DRIVER_RULES } from "../drivers/access.js";
import { closeOnlinePeriod, openOnlinePeriod } from "../drivers/availability.js";
import { assertCanOperate, loadDriver } from "../drivers/readiness.js";
import { ASSIGNED_STATES } from "../trips/states.js";
import { ValidationError } from "../errors.js";
import { latitude, longitude, missingOr, optional, parseInput, type Raw } from "../validation.js";

const locationSchema = z.object({
  latitud: optional(latitude()),
  longitud: optional(longitude()),
  disponibilidad: optional(z.union([z.literal(0), z.literal(1)], { error: missingOr("debe ser 1 (en línea) o 0 (fuera de línea)") })),
});

/** A position needs both coordinates; a report needs a position, an availability or both. */
function parseReport(input: Raw<typeof locationSchema>) {
  const report = parseInput(locationSchema, input);
  if (report.latitud === undefined && report.longitud !== undefined) throw new ValidationError("es obligatorio junto con 'longitud'", "latitud");
  if (report.longitud === undefined && report.latitud !== undefined) throw new ValidationError("es obligatorio junto con 'latitud'", "longitud");
  if (report.latitud === undefined && report.disponibilidad === undefined) {
    throw new ValidationError("Envía la posición (latitud y longitud), la disponibilidad o ambas");
  }
  return report;
}

/**
 * A driver's phone reports where it is (about every 10 s), whether the driver wants trips, or
 * both. The position is kept in the database and announced to every process's geo index and to
 * whoever follows the driver's current trip. A driver busy with a trip stays unavailable
 * whatever the phone says; going online needs the driver to be allowed to operate.
 */
export async function updateDriverLocation(deps: Deps, actor: Actor, input: Raw<typeof locationSchema>) {
  const driverId = member(actor, DRIVER_RULES.edit).id;
  const report = parseReport(input);
  const { disponibilidad } = report;
  const driver = await loadDriver(deps.db, driverId);
  // Availability alone keeps the last known position, and its time.
  const moved = report.latitud !== undefined;
  const latitud = moved ? report.latitud! : (driver.estado?.latitud ?? null);
  const longitud = moved ? report.longitud! : (driver.estado?.longitud ?? null);
  const now = deps.clock.now();
  const activeTrip = await deps.db.trip.findFirst({
    where: { conductor_id: driverId, estado: { in: [...ASSIGNED_STATES] } },
    select: { id: true },
  });
  const wasOnline = driver.estado?.disponible ?? false;
  const online = (disponibilidad === undefined ? wasOnline : disponibilidad === 1) && !activeTrip;
  if (online) assertCanOperate(driver, now);

  const status = await deps.db.$transaction(async (tx) => {
    const position = { disponible: online, latitud, longitud, posicion_en: moved ? now : (driver.estado?.posicion_en ?? null) };
    const saved = await tx.driverStatus.upsert({
      where: { conductor_id: driverId },
      create: { conductor_id: driverId, ...position },
      update: position,
    });
    if (online && !wasOnline) await openOnlinePeriod(tx, driverId, now);
    if (!online && wasOnline) await closeOnlinePeriod(tx, driverId, now);
    return saved;
  });

  if (latitud !== null && longitud !== null) {
    const event = { conductor_id: driverId, latitud, longitud, disponible: online, at: status.posicion_en ?? now };
    deps.events.publish("posicion_conductor", event);
    if (activeTrip && moved) deps.events.publish("ubicacion_viaje", activeTrip.id, event);
  }
  return { ...status, viaje_activo_id: activeTrip?.id ?? null };
}
