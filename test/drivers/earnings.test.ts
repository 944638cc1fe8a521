import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.js";
import { post } from "../support/fixtures.js";
import { FixedClock } from "../support/clock.js";

import { ESTADIO, LLERAS, createDriver, createPassenger, requestTrip } from "../support/trips.js";

// The deployed app's files named here (lib/src/…) are in https://github.com/Braian551/pingo/tree/35be6b2751ba54667ec1437fc46cd3a8ee79fd51.

let app: TestApp;
const clock = new FixedClock("2026-02-28T12:00:00Z");
beforeAll(async () => {
  app = await createTestApp({ clock });
});
afterAll(() => app.close());

/** Bogotá is UTC-5: "2026-03-30 23:50" there is 2026-03-31T04:50Z. */
const bogota = (local: string) => new Date(`${local.replace(" ", "T")}:00-05:00`);

/** A whole trip through the real calls, completed at `completedAt` (Bogotá time) for `price`. */
async function tripCompletedAt(driverId: number, passengerId: number, completedAt: string, price: number) {
  const end = bogota(completedAt);
  clock.set(new Date(end.getTime() - 30 * 60_000));
  await post(app, "/conductor/update_location.php", { conductor_id: driverId, ...LLERAS });
  const trip = await requestTrip(app, passengerId);
  expect((await post(app, "/viajes/accept_trip.php", { trip_id: trip.id, conductor_id: driverId })).status).toBe(200);
  await post(app, "/viajes/start_trip.php", { trip_id: trip.id });
  clock.set(end);
  expect((await post(app, "/viajes/complete_trip.php", { trip_id: trip.id, precio_final: price })).status).toBe(200);
}

describe("GET /conductor/get_earnings.php", () => {
  it("adds up net earnings by calendar period in Bogotá, across day, week and month boundaries", async () => {
    const driver = await createDriver(app);
    const passenger = await createPassenger(app);
    await tripCompletedAt(driver.id, passenger.id, "2026-02-28 23:30", 10_000); // February there, March in UTC
    await tripCompletedAt(driver.id, passenger.id, "2026-03-28 12:00", 20_000); // Saturday: last week
    await tripCompletedAt(driver.id, passenger.id, "2026-03-30 00:30", 30_000); // Monday: this week
    await tripCompletedAt(driver.id, passenger.id, "2026-03-30 23:50", 50_000); // yesterday there, today in UTC
    await tripCompletedAt(driver.id, passenger.id, "2026-03-31 00:10", 40_000); // today
    clock.set(bogota("2026-03-31 18:00"));

    const earnings = async (periodo: string) => {
      const response = await app.legacy("GET", "/conductor/get_earnings.php", { conductor_id: String(driver.id), periodo });
      expect(response.status).toBe(200);
      return response.body.earnings;
    };
    // 15 % commission: drivers keep 85 %.
    expect(await earnings("hoy")).toEqual({
      periodo: "hoy",
      total_viajes: 1,
      ganancia_total: 34_000,
      ganancia_promedio: 34_000,
      fecha_inicio: "2026-03-31T05:00:00.000Z",
      fecha_fin: "2026-04-01T04:59:59.999Z",
      desglose_diario: [{ fecha: "2026-03-31", ganancias: 34_000, viajes: 1 }],
    });
    expect(await earnings("semana")).toEqual({
      periodo: "semana",
      total_viajes: 3,
      ganancia_total: 102_000,
      ganancia_promedio: 34_000,
      fecha_inicio: "2026-03-30T05:00:00.000Z",
      fecha_fin: "2026-04-06T04:59:59.999Z",
      // Bogotá days: 00:30 and 23:50 on Monday the 30th are one day, 00:10 on the 31st the next.
      desglose_diario: [
        { fecha: "2026-03-30", ganancias: 68_000, viajes: 2 },
        { fecha: "2026-03-31", ganancias: 34_000, viajes: 1 },
      ],
    });
    expect(await earnings("mes")).toEqual({
      periodo: "mes",
      total_viajes: 4,
      ganancia_total: 119_000,
      ganancia_promedio: 29_750,
      fecha_inicio: "2026-03-01T05:00:00.000Z",
      fecha_fin: "2026-04-01T04:59:59.999Z",
      desglose_diario: [
        { fecha: "2026-03-28", ganancias: 17_000, viajes: 1 },
        { fecha: "2026-03-30", ganancias: 68_000, viajes: 2 },
        { fecha: "2026-03-31", ganancias: 34_000, viajes: 1 },
      ],
    });
    const total = await earnings("total");
    expect(total).toMatchObject({
      periodo: "total",
      total_viajes: 5,
      ganancia_total: 127_500,
      ganancia_promedio: 25_500,
      fecha_fin: clock.now().toISOString(),
    });
  });

  it.each([
    [{ periodo: "anio" }, 400, "El campo 'periodo' debe ser uno de: hoy, semana, mes, total"],
    [{}, 400, "El campo 'periodo' es obligatorio"],
  ])("answers %j with %i", async (query, status, message) => {
    const driver = await createDriver(app);
    const response = await app.legacy("GET", "/conductor/get_earnings.php", { conductor_id: String(driver.id), ...query });
    expect(response.status).toBe(status);
    expect(response.body).toEqual({ success: false, message });
  });

  it("answers 404 for someone who is not a driver", async () => {
    const passenger = await createPassenger(app);
    expect((await app.legacy("GET", "/conductor/get_earnings.php", { conductor_id: String(passenger.id), periodo: "hoy" })).status).toBe(
      404,
    );
  });
});

describe("GET /conductor/get_statistics.php", () => {
  it("computes every figure from offers, answers, trips and online time", async () => {
    const at = (seconds: number) => clock.set(new Date(bogota("2026-05-05 09:00").getTime() + seconds * 1000));
    const ping = (driverId: number) => post(app, "/conductor/update_location.php", { conductor_id: driverId, ...ESTADIO });
    at(0);
    const driver = await createDriver(app, { at: ESTADIO });
    const passenger = await createPassenger(app);
    const cancel = (trip_id: number) => post(app, "/viajes/cancel_trip.php", { trip_id, motivo: "Cambio de planes" });

    // A: offered at 0, accepted after 20 s, driven 30 min over 10 km, rated 5.
    const a = await requestTrip(app, passenger.id, { origen: ESTADIO, destino: LLERAS });
    at(20);
    await post(app, "/viajes/accept_trip.php", { trip_id: a.id, conductor_id: driver.id });
    at(60);
    await post(app, "/viajes/start_trip.php", { trip_id: a.id });
    at(1820);
    await post(app, "/viajes/complete_trip.php", { trip_id: a.id, precio_final: 25_000, distancia_real: 10 });
    await post(app, "/viajes/rate_conductor.php", { trip_id: a.id, calificacion: 5 });
    // B: offered at 1820, turned down after 10 s.
    await ping(driver.id);
    const b = await requestTrip(app, passenger.id, { origen: ESTADIO, destino: LLERAS });
    at(1830);
    await app.graphql(`mutation ($id: Int!) { rejectTripRequest(trip_id: $id) { __typename } }`, { id: b.id }, driver.id);
    at(1840);
    await cancel(b.id);
    // C: offered at 1840, accepted after 40 s, cancelled by the passenger a minute later.
    const c = await requestTrip(app, passenger.id, { origen: ESTADIO, destino: LLERAS });
    at(1880);
    await post(app, "/viajes/accept_trip.php", { trip_id: c.id, conductor_id: driver.id });
    at(1940);
    await cancel(c.id);
    // D: offered at 1940 and never answered.
    await ping(driver.id);
    const d = await requestTrip(app, passenger.id, { origen: ESTADIO, destino: LLERAS });
    at(1950);
    await cancel(d.id);
    at(2000);

    const response = await app.legacy("GET", "/conductor/get_statistics.php", { conductor_id: String(driver.id) });
    expect(response.status).toBe(200);
    expect(response.body.statistics).toEqual({
      total_viajes: 1,
      viajes_hoy: 1,
      viajes_semana: 1,
      viajes_mes: 1,
      calificacion_promedio: 5,
      total_calificaciones: 1,
      tasa_aceptacion: 50, // A and C of four shown
      tasa_completacion: 50, // A of A and C
      tasa_cancelacion: 50, // C of A and C
      tiempo_promedio_respuesta: 23.33, // (20 + 10 + 40) / 3
      distancia_total_km: 10,
      // Online 0-20, 1820-1880 and 1940-2000 s; busy with A 20-1820 and with C 1880-1940: 2000 s.
      horas_activo: 0.56,
      // All of it today (Bogotá), and A's fare net of the 15 % commission.
      horas_hoy: 0.56,
      ganancias_hoy: 21_250,
    });
    // pingo's older home screen reads the same under estadisticas (lib/src/features/conductor/services/conductor_service.dart).
    expect(response.body.estadisticas).toEqual(response.body.statistics);
  });

  it("counts today's hours from midnight in Bogotá, and earlier hours only in the total", async () => {
    clock.set(bogota("2026-06-10 23:00"));
    const driver = await createDriver(app, { at: ESTADIO });
    clock.set(bogota("2026-06-11 00:30"));
    const { body } = await app.legacy("GET", "/conductor/get_statistics.php", { conductor_id: String(driver.id) });
    expect(body.statistics).toMatchObject({ horas_activo: 1.5, horas_hoy: 0.5, ganancias_hoy: 0 });
  });

  it("is all zeros for a new driver", async () => {
    const driver = await createDriver(app, { online: false });
    const { body } = await app.legacy("GET", "/conductor/get_statistics.php", { conductor_id: String(driver.id) });
    expect(Object.values(body.statistics).every((value) => value === 0)).toBe(true);
  });
});
