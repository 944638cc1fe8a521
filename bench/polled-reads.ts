/**
 * The reads the apps repeat all day, each made as its caller makes it (signed in with a Bearer
 * token, on the accepted trip the waiting screen follows) and each against the same rows read with
 * prepared statements (bench/baselines.ts). Every answer, the service's and the baseline's, is
 * checked for the rows the baseline reads: a read answered without them counts as failed.
 */
import { serviceForVehicle } from "../src/domain/service-types.js";
import { lookingDriver } from "./seed.js";
import type { ServerReady } from "./server-process.js";

export interface Target {
  label: string;
  port: number;
  method: "GET" | "POST";
  path: string;
  headers?: Record<string, string>;
  /** The body, or a function giving a fresh one for every request, so that bodies vary as the apps' do. */
  body?: string | (() => string);
  /** Whether an answer's body is a success with what it must carry: legacy calls can fail with 200 and success false. */
  ok: (body: string) => boolean;
}

/** A read: the service's request and the baseline's, with the row name of the table. */
export interface PolledRead {
  path: string;
  service: Target;
  baseline: Target;
}

// biome-ignore lint/suspicious/noExplicitAny: answers are checked field by field below
const parse = (body: string): any => {
  try {
    return JSON.parse(body);
  } catch {
    return null;
  }
};
const text = (value: unknown) => typeof value === "string" && value.length > 0;

/** The number of entries a list read answers with now, asked of its baseline: the service must answer as many. */
async function entries(baseline: Target): Promise<number> {
  const response = await fetch(`http://127.0.0.1:${baseline.port}${baseline.path}`);
  const total = parse(await response.text())?.total;
  if (!Number.isInteger(total) || total === 0) throw new Error(`${baseline.path} answers no entries: nothing to measure`);
  return total;
}

/** The four reads on a server that seeded its city, the list reads' sizes asked of their baselines. */
export async function polledReads(server: ServerReady): Promise<PolledRead[]> {
  const { ports, city, tokens } = server;
  const { tripId, riderId } = city;
  const rider = { authorization: `Bearer ${tokens.rider}` };
  const driver = lookingDriver(city.drivers);
  const app = (path: string, ok: Target["ok"], headers = rider): Target => ({
    label: path.split("?")[0]!.slice(1),
    port: ports.app,
    method: "GET",
    path,
    headers,
    ok,
  });
  const prepared = (path: string, ok: Target["ok"]): Target => ({
    label: `prepared ${path.split("?")[0]}`,
    port: ports.prepared,
    method: "GET",
    path,
    ok,
  });

  const activeBaseline = prepared(`/active-trips?usuario_id=${riderId}`, () => true);
  const pendingBaseline = prepared(
    `/pending?latitud=${driver.latitud}&longitud=${driver.longitud}&tipo_servicio=${serviceForVehicle(driver.tipo)}`,
    () => true,
  );
  const [active, pending] = await Promise.all([entries(activeBaseline), entries(pendingBaseline)]);
  const listed = (n: number, key: string) => (body: string) => {
    const list = parse(body)?.[key];
    return Array.isArray(list) && list.length === n && list.every((entry) => text(entry.cliente_nombre));
  };

  return [
    {
      path: "GET /viajes/get_trip.php",
      service: app(`/viajes/get_trip.php?trip_id=${tripId}`, (body) => {
        const trip = parse(body)?.trip;
        return trip?.id === tripId && text(trip.conductor?.nombre) && text(trip.conductor?.vehiculo?.placa);
      }),
      baseline: prepared(`/trip?trip_id=${tripId}`, (body) => {
        const trip = parse(body)?.trip;
        return trip?.id === tripId && text(trip.conductor?.nombre) && text(trip.conductor?.perfil_conductor?.vehiculo?.placa);
      }),
    },
    {
      path: "GET /user/get_trip_status.php",
      service: app(`/user/get_trip_status.php?solicitud_id=${tripId}`, (body) => {
        const conductor = parse(body)?.trip?.conductor;
        return text(conductor?.nombre) && text(conductor.vehiculo?.placa) && typeof conductor.ubicacion?.latitud === "number";
      }),
      baseline: prepared(`/trip-status?trip_id=${tripId}`, (body) => {
        const trip = parse(body)?.trip;
        return (
          text(trip?.conductor?.nombre) &&
          text(trip.conductor.perfil_conductor?.vehiculo?.placa) &&
          typeof trip.ubicacion_conductor?.latitud === "number"
        );
      }),
    },
    {
      path: "GET /viajes/get_active_trips.php",
      service: app(`/viajes/get_active_trips.php?usuario_id=${riderId}`, listed(active, "viajes")),
      baseline: { ...activeBaseline, ok: listed(active, "trips") },
    },
    {
      path: "POST /conductor/get_solicitudes_pendientes.php",
      service: {
        label: "get_solicitudes_pendientes.php",
        port: ports.app,
        method: "POST",
        path: "/conductor/get_solicitudes_pendientes.php",
        headers: { "content-type": "application/json", authorization: `Bearer ${tokens.driver}` },
        // As trip_request_search_service.dart sends it, its search radius included.
        body: JSON.stringify({
          conductor_id: driver.conductor_id,
          latitud_actual: driver.latitud,
          longitud_actual: driver.longitud,
          radio_km: 5.0,
        }),
        ok: listed(pending, "solicitudes"),
      },
      baseline: { ...pendingBaseline, ok: listed(pending, "solicitudes") },
    },
  ];
}
