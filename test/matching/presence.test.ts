import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildServer } from "../../src/server.js";
import { createTestApp, type TestApp } from "../support/app.js";
import { FixedClock } from "../support/clock.js";
import { newAdmin } from "../support/drivers.js";
import { post } from "../support/fixtures.js";
import { ESTADIO, LLERAS, createDriver, createPassenger, northOf } from "../support/trips.js";

let app: TestApp;
const clock = new FixedClock("2026-03-10T15:00:00Z");
beforeAll(async () => {
  // Positions are stored only when a test says so, so that no batch lands among the statements counted.
  app = await createTestApp({ clock, env: { POSITION_FLUSH_MS: "60000" } });
});
afterAll(() => app.close());

const locate = (body: Record<string, unknown>) => post(app, "/conductor/update_location.php", body);
const row = (driverId: number) => app.db.driverStatus.findUniqueOrThrow({ where: { conductor_id: driverId } });
const tripFrom = (passengerId: number, origen = LLERAS) =>
  post(app, "/viajes/create_trip.php", { usuario_id: passengerId, tipo_servicio: "auto", origen, destino: ESTADIO });
/** What a passenger is told when no driver can be offered the trip (a business refusal: 200). */
const NO_DRIVERS = { status: 200, body: { success: false, message: expect.stringMatching(/^No hay conductores disponibles/) } };
/** The SQL statements `work` sends. */
async function statementsOf(work: () => Promise<unknown>): Promise<string[]> {
  const before = app.queries.length;
  await work();
  return app.queries.slice(before);
}
/** Somewhere nobody else in this file works, so trips there find only the drivers put there. */
let area = 0;
const nextArea = () => ({ ...northOf(LLERAS, 30 * ++area), direccion: `Zona ${area}` });

describe("a ping from a driver already online", () => {
  it("reads nothing about the driver and writes nothing: the position is kept in memory and announced", async () => {
    const driver = await createDriver(app);
    clock.advance(10_000);
    let answer: Awaited<ReturnType<typeof locate>> | undefined;
    const statements = await statementsOf(
      async () => (answer = await locate({ conductor_id: driver.id, latitud: 6.2091, longitud: -75.566 })),
    );
    expect(answer!.body.ubicacion).toEqual({
      conductor_id: driver.id,
      latitud: 6.2091,
      longitud: -75.566,
      disponibilidad: 1,
      posicion_en: clock.now().toISOString(),
      viaje_activo_id: null,
    });
    // Only who the caller is: every call checks the account behind the id it names (a planned read).
    expect(statements).toHaveLength(1);
    expect(statements[0]).toMatch(/^SELECT t0\..* FROM usuarios t0 WHERE/);
  });

  it("reaches the database with the next batch, in one statement for every driver, never over a newer position", async () => {
    const drivers = [await createDriver(app), await createDriver(app), await createDriver(app)];
    await app.server.flushPositions();
    const start = clock.now();
    clock.advance(10_000);
    for (const [i, driver] of drivers.entries()) await locate({ conductor_id: driver.id, latitud: 6.3 + i / 100, longitud: -75.5 });
    expect((await row(drivers[0]!.id)).posicion_en).toEqual(start);
    // The last driver then goes offline somewhere else: a change of availability is stored at once.
    clock.advance(1_000);
    await locate({ conductor_id: drivers[2]!.id, latitud: 6.4, longitud: -75.4, disponibilidad: 0 });
    expect(await row(drivers[2]!.id)).toMatchObject({ disponible: false, latitud: 6.4, posicion_en: clock.now() });

    const statements = await statementsOf(() => app.server.flushPositions());
    expect(statements).toHaveLength(1);
    expect(await row(drivers[0]!.id)).toMatchObject({ latitud: 6.3, longitud: -75.5, posicion_en: new Date(start.getTime() + 10_000) });
    expect(await row(drivers[1]!.id)).toMatchObject({ latitud: 6.31 });
    expect(await row(drivers[2]!.id)).toMatchObject({ disponible: false, latitud: 6.4, longitud: -75.4 });
  });
});

describe("whether a driver can take trips", () => {
  it("is decided again when an administrator deactivates them: no more offers, and the next ping finds them offline", async () => {
    const admin = await newAdmin(app);
    const origen = nextArea();
    const driver = await createDriver(app, { at: origen });
    const passenger = await createPassenger(app);
    const deactivated = await app.legacy("PUT", "/admin/user_management.php", { admin_id: admin.id, user_id: driver.id, es_activo: false });
    expect(deactivated.status).toBe(200);
    expect(await tripFrom(passenger.id, origen)).toMatchObject(NO_DRIVERS);
    expect((await locate({ conductor_id: driver.id, ...origen })).body.ubicacion.disponibilidad).toBe(0);
    expect((await locate({ conductor_id: driver.id, ...origen, disponibilidad: 1 })).status).toBe(403);
  });

  it("is decided again at the expiry of a document, at midnight, without any call", async () => {
    const origen = nextArea();
    const driver = await createDriver(app, { at: origen, online: false });
    const midnight = new Date("2026-03-11T05:00:00Z");
    await app.db.vehicle.update({ where: { conductor_id: driver.id }, data: { soat_vencimiento: midnight } });
    expect((await locate({ conductor_id: driver.id, ...origen, disponibilidad: 1 })).status).toBe(200);
    const passenger = await createPassenger(app);
    const first = await tripFrom(passenger.id, origen);
    expect(first.status).toBe(200);
    await post(app, "/viajes/cancel_trip.php", { trip_id: first.body.trip.id, usuario_id: passenger.id, motivo: "Prueba" });

    const before = clock.now();
    clock.set(new Date(midnight.getTime() + 1000));
    try {
      // The position is fresh, but the SOAT is not in force any more.
      await app.db.driverStatus.update({ where: { conductor_id: driver.id }, data: { posicion_en: clock.now() } });
      expect(await tripFrom(passenger.id, origen)).toMatchObject(NO_DRIVERS);
      const ping = await locate({ conductor_id: driver.id, ...origen });
      expect(ping.status).toBe(400);
      expect(ping.body.message).toMatch(/^El SOAT está vencido desde/);
    } finally {
      clock.set(before);
    }
  });

  it("is decided again when a trip ends: the driver is offered the next one at once", async () => {
    const origen = nextArea();
    const driver = await createDriver(app, { at: origen });
    const passenger = await createPassenger(app);
    const trip = (await tripFrom(passenger.id, origen)).body.trip;
    expect((await post(app, "/viajes/accept_trip.php", { trip_id: trip.id, conductor_id: driver.id })).status).toBe(200);
    const other = await createPassenger(app);
    // Busy with a trip, the driver is offered nothing.
    expect(await tripFrom(other.id, origen)).toMatchObject(NO_DRIVERS);
    expect((await post(app, "/viajes/cancel_trip.php", { trip_id: trip.id, conductor_id: driver.id, motivo: "Se varó" })).status).toBe(200);
    expect((await tripFrom(other.id, origen)).status).toBe(200);
  });

  it("is known, for thousands of drivers, by a process that starts later", async () => {
    // More drivers than SQLite takes parameters in one list, put online straight in the database.
    const count = 1500;
    const now = clock.now();
    const year = new Date(now.getTime() + 365 * 24 * 3600 * 1000);
    const tag = `flota-${Date.now()}`;
    await app.db.user.createMany({
      data: Array.from({ length: count }, (_, i) => ({
        email: `${tag}-${i}@example.com`,
        nombre: "F",
        apellido: "L",
        telefono: "3000000000",
        password_hash: "x",
        tipo_usuario: "conductor",
      })),
    });
    const ids = (await app.db.user.findMany({ where: { email: { startsWith: tag } }, select: { id: true } })).map((u) => u.id);
    await app.db.driverProfile.createMany({ data: ids.map((conductor_id) => ({ conductor_id, aprobado: true })) });
    await app.db.license.createMany({ data: ids.map((conductor_id) => ({ conductor_id, fecha_expiracion: year })) });
    await app.db.vehicle.createMany({
      data: ids.map((conductor_id) => ({ conductor_id, tipo: "moto", soat_vencimiento: year, tecnomecanica_vencimiento: year })),
    });
    const { latitud, longitud } = northOf(LLERAS, 500);
    await app.db.driverStatus.createMany({
      data: ids.map((conductor_id) => ({ conductor_id, disponible: true, posicion_en: now, latitud, longitud })),
    });
    const second = await buildServer(app.config, { clock });
    try {
      expect(second.deps.matching.presence.index.size).toBeGreaterThanOrEqual(count);
    } finally {
      await second.stop();
    }
  });

  it("is known by a process that starts later, from the database", async () => {
    const origen = nextArea();
    await createDriver(app, { at: origen });
    const passenger = await createPassenger(app);
    const second = await buildServer(app.config, { clock });
    try {
      expect(second.deps.matching.presence.index.size).toBeGreaterThan(0);
      const body = JSON.stringify({ usuario_id: passenger.id, tipo_servicio: "auto", origen, destino: ESTADIO });
      const response = await second.fetch(
        new Request("http://test/viajes/create_trip.php", { method: "POST", headers: { "content-type": "application/json" }, body }),
      );
      expect(response.status).toBe(200);
    } finally {
      await second.stop();
    }
  });
});
