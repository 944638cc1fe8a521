import { z } from "zod";
import type { Reservation } from "../../db/models.js";
import { authorize, member, type Actor } from "../actor.js";
import type { Deps } from "../deps.js";
import { assertCanOperate, loadDriver } from "../drivers/readiness.js";
import { ConflictError, ForbiddenError, InvalidStateError, ValidationError } from "../errors.js";
import { greatCircleKm, type Point } from "../geo.js";
import { deliver, nothingTold } from "../notifications/tell.js";
import { round } from "../numbers.js";
import { serviceForVehicle, type VehicleType } from "../service-types.js";
import { latitude, longitude, optional, parseInput, type Raw } from "../validation.js";
import { RESERVATION_RULES } from "./access.js";
import { getReservation, HOUR_BEFORE_MS, releaseDriver, tellDriverAssigned } from "./reservations.js";

/** Reservations are listed to drivers whose pickup is within this distance of them. */
const RESERVATION_RADIUS_KM = 10;

/** A driver's commitments are this far apart at least: one pickup cannot follow another sooner. */
const COMMITMENTS_APART_MS = HOUR_BEFORE_MS;

/** Withdrawing within this long of the pickup is late: it counts against the driver's acceptance. */
const LATE_WITHDRAWAL_MS = HOUR_BEFORE_MS;

/** What a driver sees of a reservation before it is theirs: where and when, never who. */
export interface OpenReservation {
  id: number;
  fecha_programada: Date;
  tipo_servicio: string;
  metodo_pago: string;
  /** The pickup and drop-off to about a kilometre: the area, not the door. */
  zona_origen: Point;
  zona_destino: Point;
  distancia_km: number;
  duracion_estimada_minutos: number;
  precio_estimado: number;
  /** From the driver to the pickup, km. */
  distancia_conductor_km: number;
}

const area = (latitud: number, longitud: number): Point => ({ latitud: round(latitud, 2), longitud: round(longitud, 2) });

const nearSchema = z.object({ latitud: optional(latitude()), longitud: optional(longitude()) });

/**
 * The reservations a driver could commit to: booked for their vehicle's service, nobody committed
 * yet, not yet being dispatched, with the pickup within RESERVATION_RADIUS_KM of where they say
 * they are (or their last position), soonest first. Only the area of each place is shown.
 */
export async function openReservations(deps: Deps, actor: Actor, input: Raw<typeof nearSchema>): Promise<OpenReservation[]> {
  authorize(actor, RESERVATION_RULES.drive);
  const driverId = member(actor).id;
  const point = parseInput(nearSchema, input);
  const driver = await loadDriver(deps.db, driverId);
  const known = deps.matching.presence.get(driverId)?.posicion;
  const stored = driver.estado;
  const here =
    point.latitud !== undefined && point.longitud !== undefined
      ? { latitud: point.latitud, longitud: point.longitud }
      : (known ?? (stored?.latitud != null && stored.longitud != null ? { latitud: stored.latitud, longitud: stored.longitud } : null));
  if (!here) throw new ValidationError("envía latitud y longitud: aún no sabemos dónde estás", "latitud");
  const service = driver.vehiculo?.tipo ? serviceForVehicle(driver.vehiculo.tipo as VehicleType) : null;
  if (!service) return [];
  const now = deps.clock.now();
  // A box around the driver narrows the rows read; the distance decides.
  const dLat = RESERVATION_RADIUS_KM / 111;
  const dLng = dLat / Math.max(0.1, Math.cos((here.latitud * Math.PI) / 180));
  const rows = await deps.db.reservation.findMany({
    where: {
      estado: "programada",
      conductor_id: null,
      tipo_servicio: service,
      fecha_programada: { gt: new Date(now.getTime() + deps.booking.dispatchLeadMs) },
      origen_latitud: { gte: here.latitud - dLat, lte: here.latitud + dLat },
      origen_longitud: { gte: here.longitud - dLng, lte: here.longitud + dLng },
    },
    orderBy: { fecha_programada: "asc" },
    take: 200,
  });
  return rows
    .map((booking) => ({ booking, km: greatCircleKm(here, { latitud: booking.origen_latitud, longitud: booking.origen_longitud }) }))
    .filter(({ km }) => km <= RESERVATION_RADIUS_KM)
    .slice(0, 50)
    .map(({ booking, km }) => ({
      id: booking.id,
      fecha_programada: booking.fecha_programada,
      tipo_servicio: booking.tipo_servicio,
      metodo_pago: booking.metodo_pago,
      zona_origen: area(booking.origen_latitud, booking.origen_longitud),
      zona_destino: area(booking.destino_latitud, booking.destino_longitud),
      distancia_km: booking.distancia_km,
      duracion_estimada_minutos: booking.duracion_estimada_minutos,
      precio_estimado: booking.precio_estimado,
      distancia_conductor_km: round(km, 1),
    }));
}

/** The reservations the calling driver committed to and still holds, soonest first. */
export async function myCommitments(deps: Deps, actor: Actor): Promise<Reservation[]> {
  authorize(actor, RESERVATION_RULES.drive);
  return deps.db.reservation.findMany({
    where: { conductor_id: member(actor).id, estado: "programada" },
    orderBy: { fecha_programada: "asc" },
  });
}

/**
 * A driver commits to a reservation ahead: it is offered to them first when it is dispatched. One
 * driver per reservation (of two at once, one wins), for a driver who could take it now with the
 * vehicle it needs, at least an hour from any other pickup of theirs. Its passenger is told, once.
 */
export async function commitToReservation(deps: Deps, actor: Actor, id: unknown): Promise<Reservation> {
  authorize(actor, RESERVATION_RULES.drive);
  const driverId = member(actor).id;
  const booking = await getReservation(deps, id);
  const driver = await loadDriver(deps.db, driverId);
  const now = deps.clock.now();
  assertCanOperate(driver, now);
  const service = serviceForVehicle(driver.vehiculo!.tipo as VehicleType);
  if (service !== booking.tipo_servicio) {
    throw new ValidationError(`La reserva es de servicio '${booking.tipo_servicio}' y tu vehículo presta '${service}'`);
  }
  if (booking.estado !== "programada" || booking.fecha_programada.getTime() - now.getTime() <= deps.booking.dispatchLeadMs) {
    throw new InvalidStateError(`La reserva ${booking.id} ya no se puede tomar con anticipación`);
  }
  const told = nothingTold();
  const committed = await deps.db.$transaction(async (tx) => {
    const clash = await tx.reservation.findFirst({
      where: {
        conductor_id: driverId,
        estado: "programada",
        fecha_programada: {
          gt: new Date(booking.fecha_programada.getTime() - COMMITMENTS_APART_MS),
          lt: new Date(booking.fecha_programada.getTime() + COMMITMENTS_APART_MS),
        },
      },
      select: { id: true },
    });
    if (clash) throw new ConflictError(`Ya tomaste la reserva ${clash.id}, a menos de una hora de esta`);
    const { count } = await tx.reservation.updateMany({
      where: { id: booking.id, estado: "programada", conductor_id: null },
      data: { conductor_id: driverId, comprometida_en: now },
    });
    if (count === 0) throw new ConflictError(`Otro conductor ya tomó la reserva ${booking.id}`);
    await tx.reservationCommitment.create({ data: { reserva_id: booking.id, conductor_id: driverId, comprometido_en: now } });
    // The passenger hears of it once, however often drivers come and go.
    await tellDriverAssigned(tx, deps, told, { id: booking.id });
    return tx.reservation.findUniqueOrThrow({ where: { id: booking.id } });
  });
  deliver(deps, told);
  return committed;
}

/** The driver gives a reservation back; within LATE_WITHDRAWAL_MS of the pickup it counts against their acceptance. */
export async function withdrawFromReservation(deps: Deps, actor: Actor, id: unknown): Promise<Reservation> {
  authorize(actor, RESERVATION_RULES.drive);
  const driverId = member(actor).id;
  const booking = await getReservation(deps, id);
  if (booking.conductor_id !== driverId) throw new ForbiddenError(`No tomaste la reserva ${booking.id}`);
  if (booking.estado !== "programada") throw new InvalidStateError(`La reserva ${booking.id} está ${booking.estado}; ya no se puede dejar`);
  const late = booking.fecha_programada.getTime() - deps.clock.now().getTime() <= LATE_WITHDRAWAL_MS;
  const told = nothingTold();
  const released = await deps.db.$transaction(async (tx) => {
    const { count } = await tx.reservation.updateMany({
      where: { id: booking.id, estado: "programada", conductor_id: driverId },
      data: { conductor_id: null, comprometida_en: null },
    });
    if (count === 0) throw new InvalidStateError(`La reserva ${booking.id} cambió mientras tanto; ya no es tuya`);
    await releaseDriver(tx, deps, told, booking, late ? "retirado_tarde" : "retirado");
    return tx.reservation.findUniqueOrThrow({ where: { id: booking.id } });
  });
  deliver(deps, told);
  return released;
}
