import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.js";
import { FixedClock } from "../support/clock.js";
import { post } from "../support/fixtures.js";
import { LLERAS, createDriver, createPassenger, requestTrip } from "../support/trips.js";

// The deployed app's files named here (lib/src/…) are in https://github.com/Braian551/pingo/tree/35be6b2751ba54667ec1437fc46cd3a8ee79fd51.

let app: TestApp;
const clock = new FixedClock("2026-03-10T15:00:00Z");
beforeAll(async () => {
  app = await createTestApp({ clock });
});
afterAll(() => app.close());

/** ConductorService.actualizarDisponibilidad (lib/src/features/conductor/services/conductor_service.dart:105-143). */
async function setAvailability(conductorId: number, disponible: 0 | 1) {
  const response = await post(app, "/conductor/actualizar_disponibilidad.php", { conductor_id: conductorId, disponible });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  expect(response.body.success).toBe(true);
  return response.body as { message: string; disponible: boolean };
}

const periods = (conductorId: number) =>
  app.db.onlinePeriod.findMany({ where: { conductor_id: conductorId }, select: { inicio: true, fin: true }, orderBy: { id: "asc" } });

const goOnline = `mutation { updateDriverLocation(disponibilidad: 1) { ... on EstadoConductor { disponibilidad cambio_disponibilidad } } }`;

describe("saying the same availability twice", () => {
  it("succeeds, says so, and counts one online period", async () => {
    const driver = await createDriver(app, { tipo: "moto", online: false });
    const start = clock.now();
    expect(await setAvailability(driver.id, 1)).toMatchObject({ message: "Estás en línea", disponible: true });
    clock.advance(60_000);
    expect(await setAvailability(driver.id, 1)).toMatchObject({ message: "Ya estabas en línea", disponible: true });
    const { data } = await app.graphql(goOnline, {}, driver.id);
    expect(data.updateDriverLocation).toEqual({ disponibilidad: 1, cambio_disponibilidad: false });
    expect(await periods(driver.id)).toEqual([{ inicio: start, fin: null }]);

    clock.advance(60_000);
    expect(await setAvailability(driver.id, 0)).toMatchObject({ message: "Estás fuera de línea", disponible: false });
    expect(await setAvailability(driver.id, 0)).toMatchObject({ message: "Ya estabas fuera de línea", disponible: false });
    expect(await periods(driver.id)).toEqual([{ inicio: start, fin: clock.now() }]);

    const back = await app.graphql(goOnline, {}, driver.id);
    expect(back.data.updateDriverLocation).toEqual({ disponibilidad: 1, cambio_disponibilidad: true });
    expect(await periods(driver.id)).toHaveLength(2);
  });

  it("is as harmless when this process has forgotten the driver and asks the database", async () => {
    const driver = await createDriver(app, { tipo: "moto" });
    // As after losing Redis: every driver is decided again from the database.
    app.server.deps.matching.presence.forgetAll();
    expect(await setAvailability(driver.id, 1)).toMatchObject({ message: "Ya estabas en línea", disponible: true });
    expect(await periods(driver.id)).toHaveLength(1);
    expect((await periods(driver.id))[0]!.fin).toBeNull();
  });

  it("tells a driver busy with a trip that they come back online when it ends", async () => {
    const passenger = await createPassenger(app);
    const driver = await createDriver(app, { tipo: "auto", at: LLERAS });
    const trip = await requestTrip(app, passenger.id);
    expect((await post(app, "/viajes/accept_trip.php", { trip_id: trip.id, conductor_id: driver.id })).status).toBe(200);
    expect(await setAvailability(driver.id, 1)).toMatchObject({
      message: "Tienes un viaje en curso; volverás a estar en línea al terminarlo",
      disponible: false,
    });
    expect((await periods(driver.id)).filter((period) => period.fin === null)).toEqual([]);
  });
});
