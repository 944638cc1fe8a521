import { randomUUID } from "node:crypto";
import type { Db } from "../src/db/client.js";
import { bulkInsert } from "./bulk-insert.js";
import { splitFare } from "./built.js";
import { pointInCity } from "./seed.js";

/**
 * A company's fleet for the fleet bench: its drivers (approved, some online, some owing the
 * platform, some with documents expired or expiring), its manager, and its trips over the last
 * `days` days with their offers; and beside it the rest of the platform (drivers of no company and
 * their trips), so that the company's reads pass over others' rows as they would in production.
 * Trips are written in the order they were requested, as a live service writes them.
 */
export interface FleetSeed {
  drivers: number;
  trips: number;
  otherDrivers: number;
  otherTrips: number;
  passengers: number;
  days: number;
  now: Date;
}

const DAY_MS = 24 * 3600 * 1000;
const MINUTE_MS = 60 * 1000;
/** The company's share of the commission, as an administrator would set it. */
const SHARE = 20;

const pick = <T>(items: readonly T[]) => items[Math.floor(Math.random() * items.length)]!;

async function users(db: Db, url: string, prefix: string, count: number, fields: { tipo_usuario: string; empresa_id?: number }, now: Date) {
  const rows = Array.from({ length: count }, (_, i) => ({
    uuid: randomUUID(),
    email: `${prefix}.${i}@bench.test`,
    nombre: pick(["Carla", "Andrés", "Luz", "Jhon", "Paola", "Mateo"]),
    apellido: `${pick(["Gómez", "Restrepo", "Zapata", "Ospina"])} ${i}`,
    telefono: `300${String(i).padStart(7, "0")}`,
    password_hash: "x",
    tipo_usuario: fields.tipo_usuario,
    empresa_id: fields.empresa_id ?? null,
    es_verificado: true,
    calificacion: 3.5 + Math.random() * 1.5,
    total_calificaciones: Math.floor(Math.random() * 200),
    creado_en: now,
    actualizado_en: now,
  }));
  await bulkInsert(url, "usuarios", rows);
  const ids = await db.user.findMany({ where: { email: { startsWith: `${prefix}.` } }, select: { id: true }, orderBy: { id: "asc" } });
  return ids.map((user) => user.id);
}

/** Approved drivers with licence and vehicle; 40% online now, 5% with the SOAT expired, 10% expiring within 30 days. */
async function drivers(url: string, ids: number[], now: Date) {
  const inAYear = new Date(now.getTime() + 365 * DAY_MS);
  const soat = (i: number) =>
    i % 20 === 0 ? new Date(now.getTime() - 3 * DAY_MS) : i % 10 === 1 ? new Date(now.getTime() + 12 * DAY_MS) : inAYear;
  const dated = { creado_en: now, actualizado_en: now };
  await bulkInsert(
    url,
    "perfiles_conductor",
    ids.map((conductor_id) => ({
      conductor_id,
      aprobado: true,
      estado_revision: "aprobado",
      fecha_aprobacion: now,
      fecha_creacion: now,
      fecha_actualizacion: now,
    })),
  );
  await bulkInsert(
    url,
    "licencias",
    ids.map((conductor_id) => ({ conductor_id, numero: `L-${conductor_id}`, tipo: "B1", fecha_expiracion: inAYear, ...dated })),
  );
  await bulkInsert(
    url,
    "vehiculos",
    ids.map((conductor_id, i) => ({
      conductor_id,
      tipo: "auto",
      marca: "Renault",
      modelo: "Logan",
      placa: `F${conductor_id}`,
      color: "Blanco",
      soat_vencimiento: soat(i),
      tecnomecanica_vencimiento: inAYear,
      ...dated,
    })),
  );
  await bulkInsert(
    url,
    "estados_conductor",
    ids.map((conductor_id, i) => ({
      conductor_id,
      disponible: i % 20 !== 0 && i % 5 < 2,
      ...pointInCity(),
      posicion_en: now,
      actualizado_en: now,
    })),
  );
}

/** Trips of a pool of drivers over the last `days` days: 85% completed, 10% cancelled, the rest under way if recent. */
function trips(count: number, pool: { drivers: number[]; empresaId: number | null }, passengerIds: number[], seed: FleetSeed) {
  return Array.from({ length: count }, () => {
    const requested = new Date(seed.now.getTime() - Math.random() * seed.days * DAY_MS);
    const roll = Math.random();
    const recent = seed.now.getTime() - requested.getTime() < 30 * MINUTE_MS;
    const estado = roll < 0.85 ? "completado" : roll < 0.95 || !recent ? "cancelado" : "en_curso";
    const metodo_pago = Math.random() < 0.7 ? "efectivo" : "billetera_digital";
    const porcentaje_comision_metodo = metodo_pago === "efectivo" ? 0 : 2.5;
    const porcentaje_empresa = pool.empresaId ? SHARE : null;
    const precio = 6000 + Math.round(Math.random() * 34) * 1000;
    const from = pointInCity();
    const to = pointInCity();
    const at = (minutes: number) => new Date(requested.getTime() + minutes * MINUTE_MS);
    const money =
      estado === "completado"
        ? { precio_final: precio, ...splitFare(precio, { porcentaje_comision: 15, porcentaje_comision_metodo, porcentaje_empresa }) }
        : { precio_final: null, comision_plataforma: null, comision_metodo_pago: null, ganancia_conductor: null, comision_empresa: null };
    return {
      pool,
      row: {
        usuario_id: pick(passengerIds),
        conductor_id: pick(pool.drivers),
        empresa_id: pool.empresaId,
        porcentaje_empresa,
        tipo_servicio: "auto",
        estado,
        origen_direccion: "Calle 10 # 43-12, El Poblado",
        origen_latitud: from.latitud,
        origen_longitud: from.longitud,
        destino_direccion: "Carrera 70 # 44-20, Laureles",
        destino_latitud: to.latitud,
        destino_longitud: to.longitud,
        precio_estimado: precio,
        metodo_pago,
        porcentaje_comision: 15,
        porcentaje_comision_metodo,
        distancia_km: 2 + Math.random() * 15,
        duracion_estimada_minutos: 8 + Math.floor(Math.random() * 40),
        fecha_solicitud: requested,
        fecha_aceptacion: at(1),
        fecha_inicio: estado === "cancelado" ? null : at(6),
        fecha_fin: estado === "completado" ? at(26) : null,
        fecha_cancelacion: estado === "cancelado" ? at(3) : null,
        cancelado_por: estado === "cancelado" ? "pasajero" : null,
        calificacion_conductor: estado === "completado" && Math.random() < 0.6 ? 3 + Math.floor(Math.random() * 3) : null,
        actualizado_en: at(26),
        ...money,
      },
    };
  });
}

/**
 * Every trip in the order it was requested, then each trip's offer to its driver, accepted, and
 * in two trips of three to another driver of its pool, turned down. The database being new, the
 * trips' ids follow the order they are written in.
 */
async function tripsWithOffers(db: Db, url: string, all: ReturnType<typeof trips>) {
  all.sort((x, y) => x.row.fecha_solicitud.getTime() - y.row.fecha_solicitud.getTime());
  const before = await db.trip.aggregate({ _max: { id: true } });
  await bulkInsert(
    url,
    "viajes",
    all.map((trip) => trip.row),
  );
  const first = (before._max.id ?? 0) + 1;
  const offers = all.flatMap(({ pool, row }, i) => {
    const accepted = { viaje_id: first + i, conductor_id: row.conductor_id, mostrada_en: row.fecha_solicitud, respuesta: "aceptada" };
    const other = pick(pool.drivers);
    return i % 3 === 0 || other === row.conductor_id
      ? [accepted]
      : [accepted, { ...accepted, conductor_id: other, respuesta: "rechazada" }];
  });
  await bulkInsert(url, "ofertas_viaje", offers);
}

/** Seeds the fleet and the rest of the platform; answers the company's manager and one of its drivers. */
export async function seedFleet(db: Db, url: string, seed: FleetSeed): Promise<{ managerId: number; driverId: number }> {
  const { now } = seed;
  const company = await db.company.create({
    data: { nombre: "Flota Bench", nit: "900999999-1", estado: "activa", porcentaje_comision: SHARE },
  });
  const [managerId] = await users(db, url, "gestor", 1, { tipo_usuario: "empresa", empresa_id: company.id }, now);
  const fleet = await users(db, url, "flota", seed.drivers, { tipo_usuario: "conductor", empresa_id: company.id }, now);
  const others = await users(db, url, "otro", seed.otherDrivers, { tipo_usuario: "conductor" }, now);
  const passengers = await users(db, url, "pasajero", seed.passengers, { tipo_usuario: "pasajero" }, now);
  await drivers(url, [...fleet, ...others], now);
  // Two drivers in five owe the platform the commission of cash fares.
  await bulkInsert(
    url,
    "cuentas_libro",
    fleet.map((conductor_id, i) => ({
      codigo: `conductor:${conductor_id}`,
      conductor_id,
      saldo: i % 5 < 2 ? -1000 * (i % 37) : 500 * (i % 11),
      actualizado_en: now,
    })),
  );
  await tripsWithOffers(db, url, [
    ...trips(seed.trips, { drivers: fleet, empresaId: company.id }, passengers, seed),
    ...trips(seed.otherTrips, { drivers: others, empresaId: null }, passengers, seed),
  ]);
  return { managerId: managerId!, driverId: fleet[0]! };
}
