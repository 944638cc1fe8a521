import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hourOfWeek } from "../../src/domain/time.js";
import { createTestApp, type TestApp } from "../support/app.js";
import { post } from "../support/fixtures.js";
import { FixedClock } from "../support/clock.js";
import { ESTADIO, LLERAS, createDriver, createPassenger, requestTrip, tripIn } from "../support/trips.js";

// The deployed app's files named here (lib/src/…) are in https://github.com/Braian551/pingo/tree/35be6b2751ba54667ec1437fc46cd3a8ee79fd51.

let app: TestApp;
const clock = new FixedClock("2026-03-10T15:00:00Z");
beforeAll(async () => {
  app = await createTestApp({ clock });
});
afterAll(() => app.close());

const status = (driverId: number) => app.db.driverStatus.findUniqueOrThrow({ where: { conductor_id: driverId } });
const openPeriods = (driverId: number) => app.db.onlinePeriod.count({ where: { conductor_id: driverId, fin: null } });

describe("GET /viajes/get_trip.php", () => {
  it("returns the trip", async () => {
    const { trip } = await tripIn(app, "pendiente");
    const response = await app.legacy("GET", "/viajes/get_trip.php", { trip_id: String(trip.id) });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, trip: { ...trip, conductor: null } });
  });

  // lib/src/features/user/services/trip_request_service.dart
  it("tells the passenger who is coming, as pingo's waiting screen reads it, and nobody unnamed", async () => {
    const { trip, driver, passenger } = await tripIn(app, "aceptado");
    const unnamed = await app.legacy("GET", "/user/get_trip_status.php", { solicitud_id: String(trip.id) });
    expect(unnamed.status).toBe(200);
    expect(unnamed.body.trip.conductor).toBeNull();
    const response = await app.legacy(
      "GET",
      "/user/get_trip_status.php",
      { solicitud_id: String(trip.id) },
      await app.bearer(passenger.id),
    );
    expect(response.status).toBe(200);
    const vehicle = await app.db.vehicle.findUniqueOrThrow({ where: { conductor_id: driver.id } });
    expect(response.body.trip.conductor).toMatchObject({
      nombre: expect.any(String),
      // The app's name for the vehicle type: its screen compares 'motocicleta' ('carro' for a car).
      vehiculo: { tipo: "carro", marca: vehicle.marca, modelo: vehicle.modelo, placa: vehicle.placa },
    });
  });

  it.each([
    [{ trip_id: "x" }, 400, "El campo 'trip_id' debe ser un número entero"],
    [{}, 400, "El campo 'trip_id' es obligatorio"],
    [{ trip_id: "987654" }, 404, "No existe un viaje con id 987654"],
  ])("answers %j with %i", async (query, code, message) => {
    const response = await app.legacy("GET", "/viajes/get_trip.php", query);
    expect(response.status).toBe(code);
    expect(response.body).toEqual({ success: false, message });
  });
});

describe("POST /viajes/accept_trip.php", () => {
  it("assigns the driver, dates it, takes the driver offline and records the answer", async () => {
    const passenger = await createPassenger(app);
    const driver = await createDriver(app);
    const trip = await requestTrip(app, passenger.id);
    expect(await openPeriods(driver.id)).toBe(1);
    clock.advance(30_000);
    const response = await post(app, "/viajes/accept_trip.php", { trip_id: trip.id, conductor_id: driver.id });
    expect(response.status).toBe(200);
    expect(response.body.trip).toMatchObject({ estado: "aceptado", conductor_id: driver.id, fecha_aceptacion: clock.now().toISOString() });
    expect((await status(driver.id)).disponible).toBe(false);
    expect(await openPeriods(driver.id)).toBe(0);
    const offer = await app.db.tripOffer.findUniqueOrThrow({
      where: { viaje_id_conductor_id: { viaje_id: trip.id, conductor_id: driver.id } },
    });
    expect(offer).toMatchObject({ respuesta: "aceptada", respondida_en: clock.now() });
    expect(offer.respondida_en!.getTime() - offer.mostrada_en.getTime()).toBe(30_000);
  });

  it("refuses a trip already taken (409) or finished (400)", async () => {
    const { trip } = await tripIn(app, "aceptado");
    const late = await createDriver(app);
    const response = await post(app, "/viajes/accept_trip.php", { trip_id: trip.id, conductor_id: late.id });
    expect(response.status).toBe(409);
    expect(response.body.message).toBe("El viaje ya fue tomado por otro conductor");
    expect((await status(late.id)).disponible).toBe(true);
    const { trip: done } = await tripIn(app, "completado");
    expect((await post(app, "/viajes/accept_trip.php", { trip_id: done.id, conductor_id: late.id })).status).toBe(400);
  });

  it("needs a driver who may take this trip", async () => {
    const passenger = await createPassenger(app);
    await createDriver(app);
    const trip = await requestTrip(app, passenger.id);
    const cases: Array<[Parameters<typeof createDriver>[1], number, string]> = [
      [{ approved: false }, 403, "El conductor aún no está aprobado para operar"],
      [{ tipo: "moto" }, 400, "El viaje pide un vehículo 'auto' y el tuyo es 'moto'"],
      [{ online: false }, 400, "Debes estar en línea (disponibilidad 1) para aceptar viajes"],
    ];
    for (const [options, code, message] of cases) {
      const driver = await createDriver(app, options);
      const response = await post(app, "/viajes/accept_trip.php", { trip_id: trip.id, conductor_id: driver.id });
      expect(response.status, message).toBe(code);
      expect(response.body.message).toBe(message);
    }
    const expired = await createDriver(app);
    await app.db.vehicle.update({
      where: { conductor_id: expired.id },
      data: { soat_vencimiento: new Date(clock.now().getTime() - 1000) },
    });
    const soat = await post(app, "/viajes/accept_trip.php", { trip_id: trip.id, conductor_id: expired.id });
    expect(soat.status).toBe(400);
    expect(soat.body.message).toMatch(/^El SOAT está vencido desde/);
    const passengerAsDriver = await post(app, "/viajes/accept_trip.php", { trip_id: trip.id, conductor_id: passenger.id });
    expect(passengerAsDriver.status).toBe(404);
    expect((await app.db.trip.findUniqueOrThrow({ where: { id: trip.id } })).estado).toBe("pendiente");
  });

  it("refuses a driver who already has an active trip", async () => {
    const { driver } = await tripIn(app, "en_curso");
    const other = await tripIn(app, "pendiente");
    // Even if the phone claims to be online again, the driver stays busy.
    await post(app, "/conductor/update_location.php", { conductor_id: driver.id, ...LLERAS, disponibilidad: 1 });
    expect((await status(driver.id)).disponible).toBe(false);
    const response = await post(app, "/viajes/accept_trip.php", { trip_id: other.trip.id, conductor_id: driver.id });
    expect(response.status).toBe(400);
  });

  it.each([
    [{ trip_id: 1 }, "El campo 'conductor_id' es obligatorio"],
    [{ conductor_id: 1 }, "El campo 'trip_id' es obligatorio"],
    [{ trip_id: 1.5, conductor_id: 1 }, "El campo 'trip_id' debe ser un número entero"],
  ])("answers %j with 400", async (body, message) => {
    const response = await post(app, "/viajes/accept_trip.php", body);
    expect(response.status).toBe(400);
    expect(response.body.message).toBe(message);
  });
});

describe("en_ruta, start and complete", () => {
  it("moves the trip through en_ruta (GraphQL only) and en_curso, dating each step", async () => {
    const { trip, driver, passenger } = await tripIn(app, "aceptado");
    const START_ROUTE = `mutation ($id: Int!) {
      startRoute(trip_id: $id) { __typename ... on Viaje { estado fecha_en_ruta } ... on Error { code message } }
    }`;
    const stranger = await app.graphql(START_ROUTE, { id: trip.id }, passenger.id);
    expect(stranger.data.startRoute).toMatchObject({ __typename: "ForbiddenError" });
    clock.advance(60_000);
    const enRoute = await app.graphql(START_ROUTE, { id: trip.id }, driver.id);
    expect(enRoute.data.startRoute).toEqual({ __typename: "Viaje", estado: "en_ruta", fecha_en_ruta: clock.now().toISOString() });
    clock.advance(60_000);
    const started = await post(app, "/viajes/start_trip.php", { trip_id: trip.id });
    expect(started.status).toBe(200);
    expect(started.body.trip).toMatchObject({ estado: "en_curso", fecha_inicio: clock.now().toISOString() });
  });

  it("will not start a trip without a driver", async () => {
    const { trip } = await tripIn(app, "pendiente");
    const response = await post(app, "/viajes/start_trip.php", { trip_id: trip.id });
    expect(response.status).toBe(400);
    expect(response.body.message).toBe("El viaje aún no tiene un conductor asignado");
  });

  it("completes with the final price, the real distance and the driver back online", async () => {
    const { trip, driver } = await tripIn(app, "en_curso");
    const startedAt = (await app.db.trip.findUniqueOrThrow({ where: { id: trip.id } })).fecha_inicio!;
    clock.advance(20 * 60_000);
    const response = await post(app, "/viajes/complete_trip.php", { trip_id: trip.id, precio_final: 23_500, distancia_real: 8.4 });
    expect(response.status).toBe(200);
    expect(response.body.trip).toMatchObject({
      estado: "completado",
      precio_final: 23_500,
      distancia_km: 8.4,
      fecha_fin: clock.now().toISOString(),
    });
    const row = await app.db.trip.findUniqueOrThrow({ where: { id: trip.id } });
    expect(row).toMatchObject({ comision_plataforma: 3525, ganancia_conductor: 19975, hora_semana: hourOfWeek(startedAt) });
    expect(row.velocidad_real_kmh).toBeCloseTo(8.4 / (20 / 60), 6);
    expect((await status(driver.id)).disponible).toBe(true);
    expect(await openPeriods(driver.id)).toBe(1);
  });

  it("keeps the estimated distance when no real one is sent", async () => {
    const { trip } = await tripIn(app, "en_curso");
    const response = await post(app, "/viajes/complete_trip.php", { trip_id: trip.id, precio_final: "18000" });
    expect(response.body.trip).toMatchObject({ precio_final: 18_000, distancia_km: trip.distancia_km });
  });

  it.each([
    [{}, "El campo 'precio_final' es obligatorio"],
    [{ precio_final: -1 }, "El campo 'precio_final' no puede ser negativo"],
    [{ precio_final: "mucho" }, "El campo 'precio_final' debe ser un número"],
    [{ precio_final: 1000, distancia_real: -3 }, "El campo 'distancia_real' no puede ser negativa"],
  ])("refuses %j with 400 and changes nothing", async (fields, message) => {
    const { trip } = await tripIn(app, "en_curso");
    const response = await post(app, "/viajes/complete_trip.php", { trip_id: trip.id, ...fields });
    expect(response.status).toBe(400);
    expect(response.body.message).toBe(message);
    expect((await app.db.trip.findUniqueOrThrow({ where: { id: trip.id } })).estado).toBe("en_curso");
  });

  it("refuses to complete a pending trip", async () => {
    const { trip } = await tripIn(app, "pendiente");
    expect((await post(app, "/viajes/complete_trip.php", { trip_id: trip.id, precio_final: 1000 })).status).toBe(400);
  });
});

describe("POST /viajes/cancel_trip.php", () => {
  it("cancels a pending trip with the reason", async () => {
    const { trip } = await tripIn(app, "pendiente");
    const response = await post(app, "/viajes/cancel_trip.php", { trip_id: trip.id, motivo: "Ya no lo necesito" });
    expect(response.status).toBe(200);
    expect(response.body.trip).toMatchObject({ estado: "cancelado", motivo_cancelacion: "Ya no lo necesito" });
  });

  it("puts an assigned driver back online", async () => {
    const { trip, driver } = await tripIn(app, "aceptado");
    await post(app, "/viajes/cancel_trip.php", { trip_id: trip.id, motivo: "El pasajero no apareció" });
    expect((await status(driver.id)).disponible).toBe(true);
  });

  it("records who cancelled when the caller is known", async () => {
    const { trip, passenger } = await tripIn(app, "aceptado");
    const { data } = await app.graphql(
      `mutation ($id: Int!) { cancelTrip(trip_id: $id, motivo: "Me demoré") { ... on Viaje { estado cancelado_por } } }`,
      { id: trip.id },
      passenger.id,
    );
    expect(data.cancelTrip).toEqual({ estado: "cancelado", cancelado_por: "pasajero" });
    const stranger = await createPassenger(app);
    const other = await tripIn(app, "pendiente");
    const refused = await app.graphql(
      `mutation ($id: Int!) { cancelTrip(trip_id: $id, motivo: "x") { __typename } }`,
      { id: other.trip.id },
      stranger.id,
    );
    expect(refused.data.cancelTrip.__typename).toBe("ForbiddenError");
  });

  it("needs a reason, and refuses finished trips", async () => {
    const { trip } = await tripIn(app, "pendiente");
    const missing = await post(app, "/viajes/cancel_trip.php", { trip_id: trip.id });
    expect(missing.status).toBe(400);
    expect(missing.body.message).toBe("El campo 'motivo' es obligatorio");
    expect((await post(app, "/viajes/cancel_trip.php", { trip_id: trip.id, motivo: "  " })).status).toBe(400);
    const { trip: done } = await tripIn(app, "completado");
    const late = await post(app, "/viajes/cancel_trip.php", { trip_id: done.id, motivo: "tarde" });
    expect(late.status).toBe(400);
    expect(late.body.message).toBe("El viaje ya está completado; no admite más cambios");
    const { trip: cancelled } = await tripIn(app, "cancelado");
    expect((await post(app, "/viajes/cancel_trip.php", { trip_id: cancelled.id, motivo: "otra vez" })).status).toBe(400);
  });
});

describe("ratings", () => {
  it("apply to completed trips only, once per side, 1 to 5, and update the average", async () => {
    const { trip, driver, passenger } = await tripIn(app, "completado");
    const rated = await post(app, "/viajes/rate_conductor.php", { trip_id: trip.id, calificacion: 5, comentario: "Excelente" });
    expect(rated.status).toBe(200);
    expect(rated.body.trip).toMatchObject({ calificacion_conductor: 5, comentario_conductor: "Excelente" });
    const again = await post(app, "/viajes/rate_conductor.php", { trip_id: trip.id, calificacion: 4 });
    expect(again.status).toBe(400);
    expect(again.body.message).toBe("El pasajero ya calificó este viaje");

    const user = await post(app, "/viajes/rate_user.php", { trip_id: trip.id, calificacion: 4 });
    expect(user.body.trip).toMatchObject({ calificacion_usuario: 4, calificacion_conductor: 5 });
    expect((await app.db.user.findUniqueOrThrow({ where: { id: passenger.id } })).calificacion).toBe(4);

    // A second trip rated 2 brings the driver to (5 + 2) / 2.
    const second = await requestTrip(app, passenger.id);
    await post(app, "/viajes/accept_trip.php", { trip_id: second.id, conductor_id: driver.id });
    await post(app, "/viajes/start_trip.php", { trip_id: second.id });
    await post(app, "/viajes/complete_trip.php", { trip_id: second.id, precio_final: 9000 });
    await post(app, "/viajes/rate_conductor.php", { trip_id: second.id, calificacion: 2 });
    const profile = await app.legacy("GET", "/auth/profile.php", { userId: String(driver.id) });
    expect(profile.body.user.calificacion).toBe(3.5);
  });

  it("refuses trips that are not completed", async () => {
    const { trip } = await tripIn(app, "en_curso");
    const response = await post(app, "/viajes/rate_conductor.php", { trip_id: trip.id, calificacion: 5 });
    expect(response.status).toBe(400);
    expect(response.body.message).toBe("Solo se califican viajes completados; este está en_curso");
  });

  it.each([
    [0, "El campo 'calificacion' debe estar entre 1 y 5"],
    [6, "El campo 'calificacion' debe estar entre 1 y 5"],
    [4.5, "El campo 'calificacion' debe ser un número entero"],
    ["cinco", "El campo 'calificacion' debe ser un número entero"],
    [undefined, "El campo 'calificacion' es obligatorio"],
  ])("refuses %j", async (calificacion, message) => {
    const { trip } = await tripIn(app, "completado");
    const response = await post(app, "/viajes/rate_user.php", { trip_id: trip.id, calificacion });
    expect(response.status).toBe(400);
    expect(response.body.message).toBe(message);
  });

  it("counts every one of many simultaneous ratings of one driver", async () => {
    const driver = await createDriver(app);
    const trips: number[] = [];
    for (let i = 0; i < 6; i++) {
      const passenger = await createPassenger(app);
      const trip = await requestTrip(app, passenger.id);
      await post(app, "/viajes/accept_trip.php", { trip_id: trip.id, conductor_id: driver.id });
      await post(app, "/viajes/complete_trip.php", { trip_id: trip.id, precio_final: 9000 });
      trips.push(trip.id);
    }
    const scores = [5, 4, 3, 5, 1, 3];
    await Promise.all(trips.map((trip_id, i) => post(app, "/viajes/rate_conductor.php", { trip_id, calificacion: scores[i] })));
    const row = await app.db.user.findUniqueOrThrow({ where: { id: driver.id } });
    expect(row.total_calificaciones).toBe(6);
    expect(row.calificacion).toBe(3.5);
  });
});

describe("trip lists", () => {
  it("list active and finished trips of passengers and drivers, newest first", async () => {
    const passenger = await createPassenger(app);
    const driver = await createDriver(app);
    const first = await requestTrip(app, passenger.id);
    await post(app, "/viajes/accept_trip.php", { trip_id: first.id, conductor_id: driver.id });
    await post(app, "/viajes/complete_trip.php", { trip_id: first.id, precio_final: 10_000 });
    clock.advance(1000);
    const second = await requestTrip(app, passenger.id);
    await post(app, "/viajes/cancel_trip.php", { trip_id: second.id, motivo: "Otro medio" });
    clock.advance(1000);
    const third = await requestTrip(app, passenger.id);
    await post(app, "/viajes/accept_trip.php", { trip_id: third.id, conductor_id: driver.id });

    const ids = async (path: string, query: Record<string, string>) => {
      const response = await app.legacy("GET", path, query);
      expect(response.status).toBe(200);
      return response.body.trips.map((t: { id: number }) => t.id);
    };
    expect(await ids("/viajes/get_active_trips.php", { usuario_id: String(passenger.id) })).toEqual([third.id]);
    expect(await ids("/viajes/get_trip_history.php", { usuario_id: String(passenger.id) })).toEqual([second.id, first.id]);
    expect(await ids("/viajes/get_conductor_active_trips.php", { conductor_id: String(driver.id) })).toEqual([third.id]);
    expect(await ids("/viajes/get_conductor_history.php", { conductor_id: String(driver.id) })).toEqual([first.id]);
    const full = await app.legacy("GET", "/viajes/get_active_trips.php", { usuario_id: String(passenger.id) });
    expect(full.body.trips[0]).toMatchObject({
      id: third.id,
      estado: "aceptado",
      conductor_id: driver.id,
      origen: { ...LLERAS, referencia: null },
      destino: { ...ESTADIO, referencia: null },
    });
  });

  it.each([
    ["/viajes/get_active_trips.php", { usuario_id: "abc" }, 400],
    ["/viajes/get_trip_history.php", {}, 400],
    ["/viajes/get_active_trips.php", { usuario_id: "999999" }, 404],
    ["/viajes/get_conductor_history.php", { conductor_id: "999999" }, 404],
  ])("%s answers %j with %i", async (path, query, code) => {
    expect((await app.legacy("GET", path, query)).status).toBe(code);
  });

  it("does not list a passenger's trips as a driver's", async () => {
    const passenger = await createPassenger(app);
    expect((await app.legacy("GET", "/viajes/get_conductor_active_trips.php", { conductor_id: String(passenger.id) })).status).toBe(404);
  });
});
