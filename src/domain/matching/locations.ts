import { z } from "zod";
import { member, type Actor } from "../actor.js";
import type { Deps } from "../deps.js";
import { DRIVER_RULES } from "../drivers/access.js";
import { closeOnlinePeriod, openOnlinePeriod, statusOf } from "../drivers/availability.js";
import { assertCanOperate, loadDriver } from "../drivers/readiness.js";
import { assertWithinDebtLimit } from "../money/debt.js";
import { ValidationError } from "../errors.js";
import { latitude, longitude, missingOr, optional, parseInput, type Raw } from "../validation.js";
import { activeTripOf, announcePresence, notePosition, presenceOf } from "./online-drivers.js";
import type { Presence } from "../presence/presence.js";

const locationSchema = z.object({
  latitud: optional(latitude()),
  longitud: optional(longitude()),
  disponibilidad: optional(z.union([z.literal(0), z.literal(1)], { error: missingOr("debe ser 1 (en línea) o 0 (fuera de línea)") })),
});

/** A position needs both coordinates; a report needs a position, an availability or both. */
function parseReport(input: Raw<typeof locationSchema>) {
  const report = parseInput(locationSchema, input);
  if (report.latitud === undefined && report.longitud !== undefined)
    throw new ValidationError("es obligatorio junto con 'longitud'", "latitud");
  if (report.longitud === undefined && report.latitud !== undefined)
    throw new ValidationError("es obligatorio junto con 'latitud'", "longitud");
  if (report.latitud === undefined && report.disponibilidad === undefined) {
    throw new ValidationError("Envía la posición (latitud y longitud), la disponibilidad o ambas");
  }
  return report;
}

/** Whether a report leaves a known driver as they are (a driver on a trip stays unavailable whatever it says). */
const keepsAvailability = (known: Presence, disponibilidad: 0 | 1 | undefined, now: Date) =>
  known.viaje_activo_id !== null || (known.disponible && known.apto_hasta > now && disponibilidad !== 0);

/**
 * A driver's phone reports where it is (about every 10 s), whether the driver wants trips, or
 * both. From a driver already online (or on a trip) and still allowed to operate, a ping is only a
 * position: no query, every process hears it, the database stores it with the next batch, and
 * whoever follows the driver's trip sees it. Anything else is decided from the database.
 */
export async function updateDriverLocation(deps: Deps, actor: Actor, input: Raw<typeof locationSchema>) {
  const driverId = member(actor, DRIVER_RULES.edit).id;
  const report = parseReport(input);
  const now = deps.clock.now();
  const known = deps.matching.presence.get(driverId);
  if (!known || !keepsAvailability(known, report.disponibilidad, now)) return changeAvailability(deps, driverId, report, now);
  if (report.latitud !== undefined) {
    const position = { conductor_id: driverId, latitud: report.latitud, longitud: report.longitud!, at: now };
    notePosition(deps, position);
    if (known.viaje_activo_id !== null) deps.events.publish("ubicacion_viaje", known.viaje_activo_id, position);
  }
  // Availability stays as it was: a phone repeating that it is online changes nothing.
  return { ...statusOf(known), cambio_disponibilidad: false };
}

/**
 * A driver goes online or offline, or is not known yet: a driver busy with a trip stays
 * unavailable whatever the phone says; going online needs the driver to be allowed to operate and
 * to owe the platform no more than the debt limit.
 */
async function changeAvailability(deps: Deps, driverId: number, report: ReturnType<typeof parseReport>, now: Date) {
  const { disponibilidad } = report;
  const [driver, activeTrip] = await Promise.all([loadDriver(deps.db, driverId), activeTripOf(deps.db, driverId)]);
  // Availability alone keeps the last known position, and its time.
  const moved = report.latitud !== undefined;
  const wasOnline = driver.estado?.disponible ?? false;
  const online = (disponibilidad === undefined ? wasOnline : disponibilidad === 1) && !activeTrip;
  if (online) assertCanOperate(driver, now);
  if (online && !wasOnline) await assertWithinDebtLimit(deps, deps.db, driverId);

  const status = await deps.db.$transaction(async (tx) => {
    const position = moved
      ? { disponible: online, latitud: report.latitud!, longitud: report.longitud!, posicion_en: now }
      : { disponible: online };
    const saved = await tx.driverStatus.upsert({
      where: { conductor_id: driverId },
      create: { conductor_id: driverId, ...position },
      update: position,
    });
    if (online && !wasOnline) await openOnlinePeriod(tx, driverId, now);
    if (!online && wasOnline) await closeOnlinePeriod(tx, driverId, now);
    return saved;
  });

  announcePresence(deps, driverId, presenceOf({ ...driver, estado: status }, activeTrip?.id ?? null, now));
  if (activeTrip && moved) {
    deps.events.publish("ubicacion_viaje", activeTrip.id, {
      conductor_id: driverId,
      latitud: status.latitud!,
      longitud: status.longitud!,
      at: now,
    });
  }
  return { ...status, viaje_activo_id: activeTrip?.id ?? null, cambio_disponibilidad: online !== wasOnline };
}
