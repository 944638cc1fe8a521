import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.js";
import { FixedClock } from "../support/clock.js";
import { newAdmin } from "../support/drivers.js";
import { post } from "../support/fixtures.js";
import { ESTADIO, LLERAS, createDriver, createPassenger, northOf, requestTrip } from "../support/trips.js";

// The deployed app's files named here (lib/src/…) are in https://github.com/Braian551/pingo/tree/35be6b2751ba54667ec1437fc46cd3a8ee79fd51.

let app: TestApp;
const clock = new FixedClock("2026-03-10T15:00:00Z");
beforeAll(async () => {
  app = await createTestApp({ clock });
});
afterAll(() => app.close());

/** TripRequestService.getTripStatus (lib/src/features/user/services/trip_request_service.dart:179-203), optionally naming the caller. */
async function status(tripId: number, query: Record<string, string> = {}) {
  const response = await app.legacy("GET", "/user/get_trip_status.php", { solicitud_id: String(tripId), ...query });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.trip;
}

/** A moto trip taken by a fresh moto driver, who last reported `at`. */
async function acceptedMotoTrip(at = northOf(LLERAS, 1)) {
  const passenger = await createPassenger(app);
  const driver = await createDriver(app, { tipo: "moto", at });
  const trip = await requestTrip(app, passenger.id, { tipo_servicio: "motocicleta" });
  expect((await post(app, "/viajes/accept_trip.php", { trip_id: trip.id, conductor_id: driver.id })).status).toBe(200);
  return { passenger, driver, trip };
}

describe("GET /user/get_trip_status.php", () => {
  it("speaks the waiting screen's words for every state", async () => {
    const passenger = await createPassenger(app);
    const driver = await createDriver(app, { tipo: "moto" });
    const trip = await requestTrip(app, passenger.id, { tipo_servicio: "motocicleta" });
    const pending = await status(trip.id);
    expect(pending).toMatchObject({
      id: trip.id,
      estado: "pendiente",
      origen: { latitud: LLERAS.latitud, longitud: LLERAS.longitud, direccion: LLERAS.direccion },
      destino: { latitud: ESTADIO.latitud, longitud: ESTADIO.longitud, direccion: ESTADIO.direccion },
      distancia_km: trip.distancia_km,
      tiempo_estimado_min: trip.duracion_estimada_minutos,
      precio_estimado: trip.precio_estimado,
      fecha_creacion: trip.fecha_solicitud,
      conductor: null,
    });
    expect(Number.isInteger(pending.tiempo_estimado_min)).toBe(true);

    const steps: Array<[string, () => Promise<unknown>, string]> = [
      ["accept", () => post(app, "/viajes/accept_trip.php", { trip_id: trip.id, conductor_id: driver.id }), "aceptada"],
      [
        "startRoute",
        () => app.graphql(`mutation ($id: Int!) { startRoute(trip_id: $id) { __typename } }`, { id: trip.id }, driver.id),
        "conductor_asignado",
      ],
      ["start", () => post(app, "/viajes/start_trip.php", { trip_id: trip.id }), "en_transito"],
      ["complete", () => post(app, "/viajes/complete_trip.php", { trip_id: trip.id, precio_final: 12000 }), "completada"],
    ];
    for (const [, step, estado] of steps) {
      await step();
      expect((await status(trip.id, { usuario_id: String(passenger.id) })).estado).toBe(estado);
    }

    const other = await requestTrip(app, passenger.id, { tipo_servicio: "motocicleta" });
    // WaitingForDriverScreen's cancel: cancelTripRequestWithReason (trip_request_service.dart:206-237).
    const cancelled = await post(app, "/user/cancel_trip_request.php", {
      solicitud_id: other.id,
      cliente_id: passenger.id,
      motivo: "Cliente canceló durante búsqueda",
    });
    expect(cancelled.status).toBe(200);
    expect(await status(other.id)).toMatchObject({
      estado: "cancelada",
      conductor: null,
      motivo_cancelacion: "Cliente canceló durante búsqueda",
    });
  });

  it("shows the driver coming, where they are and their moto as 'motocicleta', to the trip's passenger only", async () => {
    const at = { latitud: 6.2194, longitud: -75.5661 };
    const { passenger, driver, trip } = await acceptedMotoTrip(at);
    const user = await app.db.user.findUniqueOrThrow({ where: { id: driver.id } });
    const vehicle = await app.db.vehicle.findUniqueOrThrow({ where: { conductor_id: driver.id } });

    // As the app sends it, naming nobody: the trip, never who drives it.
    expect(await status(trip.id)).toMatchObject({ estado: "aceptada", conductor: null });

    const seen = await status(trip.id, { usuario_id: String(passenger.id) });
    expect(seen.conductor).toEqual({
      nombre: `${user.nombre} ${user.apellido}`,
      telefono: user.telefono,
      calificacion: user.calificacion,
      vehiculo: { tipo: "motocicleta", marca: vehicle.marca, modelo: vehicle.modelo, placa: vehicle.placa, color: vehicle.color },
      ubicacion: at,
    });
    // The same caller as the cancel call spells it.
    expect((await status(trip.id, { cliente_id: String(passenger.id) })).conductor).toEqual(seen.conductor);

    // The driver moves: the passenger sees it at once.
    const closer = { latitud: 6.2122, longitud: -75.566 };
    expect((await post(app, "/conductor/update_location.php", { conductor_id: driver.id, ...closer })).status).toBe(200);
    expect((await status(trip.id, { usuario_id: String(passenger.id) })).conductor.ubicacion).toEqual(closer);

    // Someone else naming themselves sees nothing of it.
    const stranger = await createPassenger(app);
    const refused = await app.legacy("GET", "/user/get_trip_status.php", {
      solicitud_id: String(trip.id),
      usuario_id: String(stranger.id),
    });
    expect(refused.status).toBe(403);
    expect(refused.body.success).toBe(false);

    // Once the trip is over, where the driver is is nobody's business.
    expect((await post(app, "/viajes/start_trip.php", { trip_id: trip.id })).status).toBe(200);
    expect((await post(app, "/viajes/complete_trip.php", { trip_id: trip.id, precio_final: 9000 })).status).toBe(200);
    const done = await status(trip.id, { usuario_id: String(passenger.id) });
    expect(done.conductor).toMatchObject({ nombre: `${user.nombre} ${user.apellido}`, ubicacion: null });
  });

  it("gives the driver's position on GraphQL to the trip's parties and administrators, and to nobody else", async () => {
    const at = { latitud: 6.2266, longitud: -75.5652 };
    const { passenger, driver, trip } = await acceptedMotoTrip(at);
    const admin = await newAdmin(app);
    const stranger = await createPassenger(app);
    const position = async (as: number) =>
      (
        await app.graphql(
          `query ($id: Int!) { trip(trip_id: $id) { ... on Viaje { ubicacion_conductor { latitud longitud } } ... on Error { code } } }`,
          { id: trip.id },
          as,
        )
      ).data.trip;
    for (const who of [passenger.id, driver.id, admin.id]) expect(await position(who)).toEqual({ ubicacion_conductor: at });
    expect(await position(stranger.id)).toEqual({ code: "FORBIDDEN" });
  });

  it("refuses an unknown or malformed request id", async () => {
    const unknown = await app.legacy("GET", "/user/get_trip_status.php", { solicitud_id: "987654" });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ success: false, message: "No existe un viaje con id 987654" });
    const malformed = await app.legacy("GET", "/user/get_trip_status.php", { solicitud_id: "uno" });
    expect(malformed.status).toBe(400);
    expect(malformed.body).toEqual({ success: false, message: "El campo 'solicitud_id' debe ser un número entero" });
  });
});

describe("GET /conductor/get_viaje_detalle.php", () => {
  /** ConductorTripsService.getTripDetails (lib/src/features/conductor/services/conductor_trips_service.dart:262-308). */
  const detail = (conductorId: number, tripId: number) =>
    app.legacy("GET", "/conductor/get_viaje_detalle.php", { conductor_id: String(conductorId), viaje_id: String(tripId) });

  it("answers the trip as the driver's history shows it", async () => {
    const { passenger, driver, trip } = await acceptedMotoTrip();
    const accepted = await detail(driver.id, trip.id);
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    const user = await app.db.user.findUniqueOrThrow({ where: { id: passenger.id } });
    expect(accepted.body.viaje).toMatchObject({
      id: trip.id,
      estado: "aceptada",
      cliente_nombre: user.nombre,
      cliente_apellido: user.apellido,
    });

    expect((await post(app, "/viajes/start_trip.php", { trip_id: trip.id })).status).toBe(200);
    expect((await post(app, "/viajes/complete_trip.php", { trip_id: trip.id, precio_final: 11000 })).status).toBe(200);
    const history = await app.legacy("GET", "/conductor/get_historial.php", { conductor_id: String(driver.id) });
    const listed = history.body.viajes.find((entry: { id: number }) => entry.id === trip.id);
    const completed = await detail(driver.id, trip.id);
    expect(completed.body.viaje).toEqual(listed);
    expect(completed.body.viaje.estado).toBe("completada");
    // The history screen shows what the driver earned: 11,000 less the 15 % commission.
    expect(listed.ganancia_conductor).toBe(9350);
    const passengers = await app.legacy("GET", "/viajes/get_trip_history.php", { usuario_id: String(passenger.id) });
    expect(passengers.body.viajes.find((entry: { id: number }) => entry.id === trip.id).ganancia_conductor).toBeNull();
  });

  it("is for the trip's driver and administrators: 404 for no trip, 403 for someone else's", async () => {
    const { passenger, driver, trip } = await acceptedMotoTrip();
    const admin = await newAdmin(app);
    const otherDriver = await createDriver(app, { tipo: "moto" });
    expect((await detail(admin.id, trip.id)).status).toBe(200);
    const unknown = await detail(driver.id, 987654);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ success: false, message: "No existe un viaje con id 987654" });
    for (const who of [otherDriver.id, passenger.id]) {
      const refused = await detail(who, trip.id);
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual({
        success: false,
        message: `Solo el conductor del viaje ${trip.id} o un administrador pueden ver su detalle`,
      });
    }
  });
});
