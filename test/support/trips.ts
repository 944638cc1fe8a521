import { randomUUID } from "node:crypto";
import { expect } from "vitest";
import type { VehicleType } from "../../src/domain/service-types.js";
import type { TestApp } from "./app.js";
import { post, registerUser } from "./fixtures.js";

export const LLERAS = { direccion: "Parque Lleras, El Poblado", latitud: 6.2086, longitud: -75.5659 };
export const ESTADIO = { direccion: "Estadio Atanasio Girardot", latitud: 6.2568, longitud: -75.5904 };
/** A point `km` north of `from`. */
export const northOf = (from: { latitud: number; longitud: number }, km: number) => ({
  latitud: from.latitud + km / ((2 * Math.PI * 6371.0088) / 360),
  longitud: from.longitud,
});

const YEAR = 365 * 24 * 3600 * 1000;

export interface DriverOptions {
  tipo?: VehicleType;
  at?: { latitud: number; longitud: number };
  approved?: boolean;
  /** Documents that expired yesterday. */
  expired?: Array<"licencia" | "soat" | "tecnomecanica">;
  /** Online at `at` through the location call; defaults to whether the driver is approved. */
  online?: boolean;
}

/**
 * A driver signed up through the shim, with licence and vehicle filled in and approved in the
 * database (as an administrator would), then online through the location call.
 */
export async function createDriver(app: TestApp, options: DriverOptions = {}) {
  const { tipo = "auto", at = LLERAS, approved = true, expired = [] } = options;
  // Only an approved driver can go online.
  const online = options.online ?? approved;
  const user = await registerUser(app, { tipo_usuario: "conductor" });
  const now = app.server.deps.clock.now();
  const expiry = (document: string) => new Date(now.getTime() + (expired.includes(document as never) ? -24 * 3600 * 1000 : YEAR));
  const placa = randomUUID().replace(/-/g, "").slice(0, 6).toUpperCase();
  await app.db.driverProfile.update({
    where: { conductor_id: user.id },
    data: {
      aprobado: approved,
      estado_revision: approved ? "aprobado" : "pendiente",
      fecha_aprobacion: approved ? now : null,
      licencia: {
        create: {
          numero: `L-${placa}`,
          tipo: tipo === "moto" ? "A2" : "B1",
          fecha_emision: new Date(now.getTime() - YEAR),
          fecha_expiracion: expiry("licencia"),
        },
      },
      vehiculo: {
        create: {
          placa,
          tipo,
          marca: "Marca",
          modelo: "Modelo",
          anio: 2022,
          color: "Blanco",
          capacidad_pasajeros: 4,
          soat_numero: `S-${placa}`,
          soat_vencimiento: expiry("soat"),
          tecnomecanica_numero: `T-${placa}`,
          tecnomecanica_vencimiento: expiry("tecnomecanica"),
          tarjeta_propiedad_numero: `TP-${placa}`,
        },
      },
    },
  });
  if (online) {
    // As the driver's phone would, over GraphQL, so that it works in every LEGACY_AUTH mode.
    const { data } = await app.graphql(
      `mutation ($lat: Float!, $lng: Float!) {
        updateDriverLocation(latitud: $lat, longitud: $lng, disponibilidad: 1) { __typename ... on Error { message } }
      }`,
      { lat: at.latitud, lng: at.longitud },
      user.id,
    );
    expect(data.updateDriverLocation, JSON.stringify(data)).toEqual({ __typename: "EstadoConductor" });
  }
  return user as { id: number; email: string };
}

export async function createPassenger(app: TestApp) {
  return (await registerUser(app)) as { id: number; email: string };
}

/** Requests a trip through the shim and expects it created. */
export async function requestTrip(app: TestApp, passengerId: number, fields: Record<string, unknown> = {}) {
  const response = await app.legacy("POST", "/viajes/create_trip.php", {
    usuario_id: passengerId,
    tipo_servicio: "auto",
    origen: LLERAS,
    destino: ESTADIO,
    ...fields,
  });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.trip;
}

/** A trip taken by a fresh driver and moved along to `state`. */
export async function tripIn(app: TestApp, state: "pendiente" | "aceptado" | "en_curso" | "completado" | "cancelado") {
  const passenger = await createPassenger(app);
  const driver = await createDriver(app);
  const trip = await requestTrip(app, passenger.id);
  if (state === "cancelado")
    expect((await post(app, "/viajes/cancel_trip.php", { trip_id: trip.id, motivo: "Cambio de planes" })).status).toBe(200);
  if (["aceptado", "en_curso", "completado"].includes(state)) {
    expect((await post(app, "/viajes/accept_trip.php", { trip_id: trip.id, conductor_id: driver.id })).status).toBe(200);
  }
  if (["en_curso", "completado"].includes(state))
    expect((await post(app, "/viajes/start_trip.php", { trip_id: trip.id })).status).toBe(200);
  if (state === "completado") {
    expect((await post(app, "/viajes/complete_trip.php", { trip_id: trip.id, precio_final: 20000 })).status).toBe(200);
  }
  return { passenger, driver, trip };
}

/** A trip requested with `fields` by a fresh passenger, taken by `driver` and completed at `precio`: the trip as completed. */
export async function completedTrip(app: TestApp, driver: { id: number }, fields: Record<string, unknown>, precio: number | string) {
  const trip = await requestTrip(app, (await createPassenger(app)).id, fields);
  expect((await post(app, "/viajes/accept_trip.php", { trip_id: trip.id, conductor_id: driver.id })).status).toBe(200);
  expect((await post(app, "/viajes/start_trip.php", { trip_id: trip.id })).status).toBe(200);
  const completed = await post(app, "/viajes/complete_trip.php", { trip_id: trip.id, precio_final: precio });
  expect(completed.status, JSON.stringify(completed.body)).toBe(200);
  return completed.body.trip;
}
