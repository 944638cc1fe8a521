import type { Db, Tx } from "../../db/client.js";
import { insertOffers } from "../../db/batches.js";
import type { ReadsOf } from "../../db/planned-reads.js";
import { boxAround, countPendingWithin } from "../../db/nearby.js";
import type { Trip, TripSelection } from "../../db/models.js";
import { authorize, member, type Actor } from "../actor.js";
import type { Deps } from "../deps.js";
import { DRIVER_RULES } from "../drivers/access.js";
import { InvalidStateError, NotFoundError, ValidationError } from "../errors.js";
import { greatCircleKm, type Point } from "../geo.js";
import { assertCanOperate, loadDriver } from "../drivers/readiness.js";
import { serviceForVehicle, type ServiceType, type VehicleType } from "../service-types.js";
import { MATCH_RADIUS_KM } from "./eligibility.js";
import { updateDriverLocation } from "./locations.js";

export const tripOrigin = (trip: Trip): Point => ({ latitud: trip.origen_latitud, longitud: trip.origen_longitud });

/** Where pending trips of a service type picked up within the radius of `point` can be: a box around it. */
function pendingNear(point: Point, serviceType: ServiceType) {
  const { dLat, dLng } = boxAround(point, MATCH_RADIUS_KM);
  return {
    estado: "pendiente",
    tipo_servicio: serviceType,
    origen_latitud: { gte: point.latitud - dLat, lte: point.latitud + dLat },
    origen_longitud: { gte: point.longitud - dLng, lte: point.longitud + dLng },
  };
}

/**
 * Pending trips of a service type picked up within the radius of `point`, newest first, with the
 * relations `selection` asks for read alongside (one statement on the planned reads).
 */
async function pendingTripsNear(reads: ReadsOf<"trip">, point: Point, serviceType: ServiceType, selection: TripSelection): Promise<Trip[]> {
  const candidates = await reads.trip.findMany({
    ...selection,
    where: pendingNear(point, serviceType),
    orderBy: [{ fecha_solicitud: "desc" }, { id: "desc" }],
  });
  return candidates.filter((trip) => greatCircleKm(point, tripOrigin(trip)) <= MATCH_RADIUS_KM);
}

/** How many of them there are, up to `limit`, counted by the database. */
export const countPendingTripsNear = (db: Db | Tx, point: Point, serviceType: ServiceType, limit: number) =>
  countPendingWithin(db, point, MATCH_RADIUS_KM, serviceType, limit);

/**
 * A driver ready to take trips: allowed to operate, online, with a position not yet stale. A
 * driver this process knows needs no query; anyone else is checked in the database, which also
 * says precisely what is missing.
 */
async function readyDriver(deps: Deps, driverId: number): Promise<{ vehicle: VehicleType; position: Point; now: Date }> {
  const now = deps.clock.now();
  const fresh = (at: Date | null | undefined) => at != null && now.getTime() - at.getTime() <= deps.matching.positionMaxAgeMs;
  const known = deps.matching.presence.get(driverId);
  if (known?.disponible && known.apto_hasta > now && known.posicion && fresh(known.posicion.at)) {
    return { vehicle: known.tipo_vehiculo, position: known.posicion, now };
  }
  const driver = await loadDriver(deps.reads, driverId);
  assertCanOperate(driver, now);
  const status = driver.estado;
  if (!status?.disponible) throw new InvalidStateError("Debes estar en línea (disponibilidad 1) para ver solicitudes");
  if (status.latitud === null || status.longitud === null || !fresh(status.posicion_en)) {
    throw new InvalidStateError("Tu ubicación está desactualizada; envíala de nuevo para ver solicitudes");
  }
  return { vehicle: driver.vehiculo!.tipo as VehicleType, position: { latitud: status.latitud, longitud: status.longitud }, now };
}

/** The pending requests near a driver for their vehicle; each one listed counts as shown to them. */
export async function requestsForDriver(deps: Deps, actor: Actor, selection: TripSelection = {}): Promise<Trip[]> {
  const driverId = member(actor, DRIVER_RULES.edit).id;
  const { vehicle, position, now } = await readyDriver(deps, driverId);
  const trips = await pendingTripsNear(deps.reads, position, serviceForVehicle(vehicle), selection);
  const { shown } = deps.matching;
  const unrecorded = shown.unrecorded(trips.map((t) => ({ viaje_id: t.id, conductor_id: driverId })));
  if (unrecorded.length > 0) {
    await insertOffers(deps.db, deps.provider, unrecorded, now);
    shown.recorded(unrecorded);
  }
  return trips;
}

/**
 * A driver who opens the app to look for trips from where they are: they go online at that
 * position, and get the pending requests near it.
 */
export async function lookForTrips(
  deps: Deps,
  actor: Actor,
  position: { latitud: unknown; longitud: unknown },
  selection: TripSelection = {},
): Promise<Trip[]> {
  await updateDriverLocation(deps, actor, { ...position, disponibilidad: 1 });
  return requestsForDriver(deps, actor, selection);
}

/** A driver turns a request down; the answer and its time feed the driver's statistics. */
export async function rejectTripRequest(deps: Deps, actor: Actor, tripId: number): Promise<Trip> {
  const driverId = member(actor, DRIVER_RULES.edit).id;
  await loadDriver(deps.db, driverId);
  const trip = await deps.db.trip.findUnique({ where: { id: tripId } });
  if (!trip) throw new NotFoundError(`No existe un viaje con id ${tripId}`);
  if (trip.estado !== "pendiente") throw new InvalidStateError(`El viaje está ${trip.estado}; ya no es una solicitud abierta`);
  const now = deps.clock.now();
  const offer = await deps.db.tripOffer.findUnique({ where: { viaje_id_conductor_id: { viaje_id: tripId, conductor_id: driverId } } });
  if (offer?.respuesta) throw new ValidationError(`Ya respondiste esta solicitud (${offer.respuesta})`);
  await deps.db.tripOffer.upsert({
    where: { viaje_id_conductor_id: { viaje_id: tripId, conductor_id: driverId } },
    create: { viaje_id: tripId, conductor_id: driverId, mostrada_en: now, respuesta: "rechazada", respondida_en: now },
    update: { respuesta: "rechazada", respondida_en: now },
  });
  return trip;
}

/** Whose request feed a subscription follows: a driver's own (or any, for an administrator). */
export function requestFeedOwner(actor: Actor, conductorId: number): number {
  authorize(actor, DRIVER_RULES.read, conductorId);
  return conductorId;
}

/**
 * Tells every driver who was offered the trip that it is no longer open, except the driver who
 * took it: for them it is not withdrawn, and their app would drop the trip they just accepted.
 */
export async function withdrawOffers(deps: Deps, trip: Trip): Promise<void> {
  const offers = await deps.db.tripOffer.findMany({ where: { viaje_id: trip.id }, select: { conductor_id: true } });
  for (const { conductor_id } of offers) {
    if (conductor_id !== trip.conductor_id) deps.events.publish("solicitud_viaje", conductor_id, { tipo: "retirada", viaje: trip });
  }
}
