import type { Db } from "../src/db/client.js";
import { boxAround } from "../src/db/nearby.js";
import { greatCircleKm, type Point } from "../src/domain/geo.js";
import { MATCH_RADIUS_KM } from "../src/domain/matching/eligibility.js";
import { serviceForVehicle, VEHICLE_TYPES, type VehicleType } from "../src/domain/service-types.js";

/** The benches' city: a 40 × 40 km square around Medellín (0.36° is about 40 km there). */
export const CITY_CENTRE: Point = { latitud: 6.25, longitud: -75.57 };
const CITY_SIDE_DEGREES = 0.36;

/** A point inside the square of side `sideDegrees` around the city centre. */
export const pointInCity = (sideDegrees = CITY_SIDE_DEGREES, random = Math.random): Point => ({
  latitud: CITY_CENTRE.latitud + (random() - 0.5) * sideDegrees,
  longitud: CITY_CENTRE.longitud + (random() - 0.5) * sideDegrees,
});

interface SeededDriver extends Point {
  conductor_id: number;
  tipo: VehicleType;
}

export interface SeededCity {
  drivers: SeededDriver[];
  passengerIds: number[];
  /**
   * A trip a driver has accepted, as the waiting screen follows it, and its passenger (a rider of
   * their own, not in `passengerIds`), for the reads.
   */
  tripId: number;
  riderId: number;
  /** Trips waiting for a driver (the queue's among them), one per passenger from the end of `passengerIds`. */
  pendingTripIds: number[];
}

/** How far from the city's centre the queued trips are picked up. */
export const QUEUE_KM = 5;

/** A point at most `km` from `center`, spread evenly over the circle. */
export function pointWithin(center: Point, km: number, random = Math.random): Point {
  const { dLat, dLng } = boxAround(center, km);
  const share = Math.sqrt(random());
  const angle = 2 * Math.PI * random();
  return { latitud: center.latitud + share * dLat * Math.cos(angle), longitud: center.longitud + share * dLng * Math.sin(angle) };
}

const YEAR_MS = 365 * 24 * 3600 * 1000;
// SQLite caps the variables of one statement; a thousand rows of a few columns stay well below.
const CHUNK = 1000;

async function inChunks<T>(rows: T[], write: (chunk: T[]) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < rows.length; i += CHUNK) await write(rows.slice(i, i + CHUNK));
}

async function createUsers(db: Db, prefix: string, count: number, tipo_usuario: string): Promise<number[]> {
  const users = Array.from({ length: count }, (_, i) => ({
    email: `${prefix}.${i}@bench.test`,
    nombre: "Bench",
    apellido: String(i),
    telefono: "3000000000",
    password_hash: "x",
    tipo_usuario,
  }));
  await inChunks(users, (data) => db.user.createMany({ data }));
  const rows = await db.user.findMany({ where: { email: { startsWith: `${prefix}.` } }, select: { id: true }, orderBy: { id: "asc" } });
  return rows.map((u) => u.id);
}

/**
 * Approved drivers online at random points of the city (vehicle types in turn), with licence and
 * vehicle in force, written straight into the database: the server fills its index of online
 * drivers from `driverStatus` when it starts. Plus passengers, one accepted trip to read, and
 * trips requested a minute ago that nobody has taken yet: `pendingTrips` at random points of the
 * city, and `queuedTrips` within QUEUE_KM of its centre, a busy pickup where requests pile up.
 */
export async function seedCity(
  db: Db,
  options: { drivers: number; passengers: number; pendingTrips?: number; queuedTrips?: number; now: Date },
): Promise<SeededCity> {
  const { now } = options;
  const inForce = new Date(now.getTime() + YEAR_MS);
  const driverIds = await createUsers(db, "driver", options.drivers, "conductor");
  const drivers = driverIds.map((conductor_id, i) => ({ conductor_id, tipo: VEHICLE_TYPES[i % VEHICLE_TYPES.length]!, ...pointInCity() }));

  await inChunks(driverIds, (ids) =>
    db.driverProfile.createMany({
      data: ids.map((conductor_id) => ({ conductor_id, aprobado: true, estado_revision: "aprobado", fecha_aprobacion: now })),
    }),
  );
  await inChunks(driverIds, (ids) =>
    db.license.createMany({
      data: ids.map((conductor_id) => ({ conductor_id, numero: `L-${conductor_id}`, tipo: "B1", fecha_expiracion: inForce })),
    }),
  );
  await inChunks(drivers, (chunk) =>
    db.vehicle.createMany({
      data: chunk.map(({ conductor_id, tipo }) => ({
        conductor_id,
        tipo,
        marca: "Renault",
        modelo: "Logan",
        placa: `B${conductor_id}`,
        color: "Blanco",
        soat_vencimiento: inForce,
        tecnomecanica_vencimiento: inForce,
      })),
    }),
  );
  await inChunks(drivers, (chunk) =>
    db.driverStatus.createMany({
      data: chunk.map(({ conductor_id, latitud, longitud }) => ({ conductor_id, disponible: true, latitud, longitud, posicion_en: now })),
    }),
  );

  const passengerIds = await createUsers(db, "passenger", options.passengers, "pasajero");
  const [riderId] = await createUsers(db, "rider", 1, "pasajero");
  // Accepted by the first driver near where they are.
  const from = pointWithin(drivers[0]!, 1);
  const to = pointInCity();
  const trip = await db.trip.create({
    data: {
      usuario_id: riderId,
      conductor_id: drivers[0]!.conductor_id,
      tipo_servicio: serviceForVehicle(drivers[0]!.tipo),
      estado: "aceptado",
      origen_direccion: "Parque Lleras",
      origen_latitud: from.latitud,
      origen_longitud: from.longitud,
      destino_direccion: "Estadio",
      destino_latitud: to.latitud,
      destino_longitud: to.longitud,
      precio_estimado: 12_000,
      distancia_km: 6.4,
      duracion_estimada_minutos: 18,
      fecha_solicitud: new Date(now.getTime() - 120_000),
      fecha_aceptacion: new Date(now.getTime() - 60_000),
    },
  });
  // One trip each for the passengers at the end of the list, the queue's last.
  const { pendingTrips = 0, queuedTrips = 0 } = options;
  const waiting = passengerIds.slice(passengerIds.length - pendingTrips - queuedTrips);
  // One in ten of the city's around the driver who looks for trips, for their vehicle, so that
  // they always find some.
  const looking = lookingDriver(drivers);
  const waitingTrip = (usuario_id: number, i: number) => {
    if (i >= pendingTrips) return pendingTrip(usuario_id, pointWithin(CITY_CENTRE, QUEUE_KM), now);
    if (i % 10) return pendingTrip(usuario_id, pointInCity(), now);
    return { ...pendingTrip(usuario_id, pointWithin(looking, MATCH_RADIUS_KM - 1), now), tipo_servicio: serviceForVehicle(looking.tipo) };
  };
  await inChunks(
    waiting.map((usuario_id, i) => waitingTrip(usuario_id, i)),
    (data) => db.trip.createMany({ data }),
  );
  const pending = await db.trip.findMany({ where: { estado: "pendiente" }, select: { id: true }, orderBy: { id: "asc" } });
  return { drivers, passengerIds, tripId: trip.id, riderId: riderId!, pendingTripIds: pending.map((t) => t.id) };
}

/** A trip of 1 to 4 km requested a minute ago from `from`, as create_trip.php leaves it. */
function pendingTrip(usuario_id: number, from: Point, now: Date) {
  const away = () => (0.01 + Math.random() * 0.03) * (Math.random() < 0.5 ? -1 : 1);
  return {
    usuario_id,
    tipo_servicio: usuario_id % 2 ? "motocicleta" : "auto",
    origen_direccion: "Calle 10 # 43-12",
    origen_latitud: from.latitud,
    origen_longitud: from.longitud,
    destino_direccion: "Carrera 70 # 44-20",
    destino_latitud: from.latitud + away(),
    destino_longitud: from.longitud + away(),
    precio_estimado: 9_000,
    distancia_km: 3,
    duracion_estimada_minutos: 10,
    fecha_solicitud: new Date(now.getTime() - 60_000),
  };
}

/** The driver who looks for trips in the reads: free, and out of reach of the queue at the city's centre. */
export const lookingDriver = (drivers: SeededDriver[]): SeededDriver =>
  drivers.find((driver, i) => i > 0 && greatCircleKm(driver, CITY_CENTRE) > 2 * QUEUE_KM)!;
