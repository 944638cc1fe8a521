import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.js";
import { post } from "../support/fixtures.js";
import { FixedClock } from "../support/clock.js";
import { createDriver, createPassenger, northOf, requestTrip, LLERAS } from "../support/trips.js";

let app: TestApp;
const clock = new FixedClock("2026-03-10T15:00:00Z");
beforeAll(async () => {
  app = await createTestApp({ clock });
});
afterAll(() => app.close());

describe("accepting under contention", () => {
  it("gives a trip to exactly one of 20 drivers accepting at once", async () => {
    const drivers: Array<{ id: number }> = [];
    for (let i = 0; i < 20; i++) drivers.push(await createDriver(app, { at: northOf(LLERAS, i * 0.1) }));
    const passenger = await createPassenger(app);
    const trip = await requestTrip(app, passenger.id);

    const responses = await Promise.all(drivers.map((d) => post(app, "/viajes/accept_trip.php", { trip_id: trip.id, conductor_id: d.id })));

    const winners = responses.flatMap((r, i) => (r.status === 200 ? [drivers[i]!.id] : []));
    expect(winners).toHaveLength(1);
    const losers = responses.filter((r) => r.status !== 200);
    expect(losers.map((r) => r.status)).toEqual(Array(19).fill(409));
    for (const loser of losers) expect(loser.body).toEqual({ success: false, message: "El viaje ya fue tomado por otro conductor" });

    const stored = await app.db.trip.findUniqueOrThrow({ where: { id: trip.id } });
    expect(stored).toMatchObject({ estado: "aceptado", conductor_id: winners[0] });
    const offline = await app.db.driverStatus.findMany({ where: { conductor_id: { in: drivers.map((d) => d.id) }, disponible: false } });
    expect(offline.map((s) => s.conductor_id)).toEqual(winners);
    expect(await app.db.tripOffer.count({ where: { viaje_id: trip.id, respuesta: "aceptada" } })).toBe(1);
  });

  it("lets one driver accepting 20 trips at once take exactly one", async () => {
    const driver = await createDriver(app, { at: northOf(LLERAS, 3) });
    const trips: Array<{ id: number }> = [];
    for (let i = 0; i < 20; i++) trips.push(await requestTrip(app, (await createPassenger(app)).id));

    const responses = await Promise.all(trips.map((t) => post(app, "/viajes/accept_trip.php", { trip_id: t.id, conductor_id: driver.id })));

    expect(responses.filter((r) => r.status === 200)).toHaveLength(1);
    expect(responses.filter((r) => r.status !== 200).every((r) => r.status === 400 || r.status === 409)).toBe(true);
    expect(await app.db.trip.count({ where: { conductor_id: driver.id } })).toBe(1);
  });
});
