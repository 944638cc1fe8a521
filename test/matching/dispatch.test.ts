import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.js";
import { FixedClock } from "../support/clock.js";
import { post } from "../support/fixtures.js";
import { LLERAS, createDriver, createPassenger, northOf, requestTrip } from "../support/trips.js";

const WAVE_MS = 500;
let app: TestApp;
const clock = new FixedClock("2026-03-10T15:00:00Z");
beforeAll(async () => {
  // Passes run when the tests nudge them, after moving the clock.
  app = await createTestApp({
    clock,
    env: { DISPATCH_WAVE_SIZE: "2", DISPATCH_WAVE_S: String(WAVE_MS / 1000) },
  });
});
afterAll(() => app.close());

/** One wave period goes by, and the waves then due go out. */
async function waveLater() {
  clock.advance(WAVE_MS);
  await app.server.nudgeDispatcher();
}

let area = 0;
/** Five drivers 1 to 4.5 km from a pickup of their own, one at 6 km; nearest first. */
async function cityBlock() {
  const pickup = { ...northOf(LLERAS, 40 * ++area), direccion: `Zona ${area}` };
  const drivers = [];
  for (const km of [1, 2, 3, 4, 4.5, 6]) drivers.push(await createDriver(app, { at: northOf(pickup, km) }));
  return { pickup, drivers: drivers.map((d) => d.id) };
}
const offered = async (tripId: number) =>
  (await app.db.tripOffer.findMany({ where: { viaje_id: tripId }, orderBy: { id: "asc" }, select: { conductor_id: true } })).map(
    (o) => o.conductor_id,
  );
const nextWaveAt = async (tripId: number) => (await app.db.trip.findUniqueOrThrow({ where: { id: tripId } })).proxima_ola;
/** A new passenger's request from `pickup`. */
const request = async (pickup: object) => requestTrip(app, (await createPassenger(app)).id, { origen: pickup });

describe("a new trip request", () => {
  it("goes to the nearest wave of drivers, then the next wave while nobody takes it, until nobody within 5 km is left", async () => {
    const { pickup, drivers } = await cityBlock();
    const created = await request(pickup);
    expect(await offered(created.id)).toEqual(drivers.slice(0, 2));
    expect(await nextWaveAt(created.id)).toEqual(new Date(clock.now().getTime() + WAVE_MS));
    // Not before its time.
    clock.advance(WAVE_MS - 1);
    await app.server.nudgeDispatcher();
    expect(await offered(created.id)).toEqual(drivers.slice(0, 2));
    clock.advance(1);
    await app.server.nudgeDispatcher();
    expect(await offered(created.id)).toEqual(drivers.slice(0, 4));
    await waveLater();
    expect(await offered(created.id)).toEqual(drivers.slice(0, 5));
    // Nobody is left within reach: the waves end, and the driver 6 km away is never offered it.
    await waveLater();
    expect(await nextWaveAt(created.id)).toBeNull();
    await waveLater();
    expect(await offered(created.id)).toEqual(drivers.slice(0, 5));
  });

  it("is shown to every driver within 5 km who looks for requests, before their wave comes", async () => {
    const { pickup, drivers } = await cityBlock();
    const created = await request(pickup);
    const listed = await app.legacy("GET", "/conductor/get_pending_requests.php", { conductor_id: String(drivers[4]) });
    expect(listed.body.solicitudes.map((s: { id: number }) => s.id)).toContain(created.id);
    // Looking counts as being offered it: the waves skip that driver.
    expect(await offered(created.id)).toEqual([...drivers.slice(0, 2), drivers[4]]);
    await waveLater();
    expect(await offered(created.id)).toEqual([...drivers.slice(0, 2), drivers[4], ...drivers.slice(2, 4)]);
    await waveLater();
    await waveLater();
    expect(await offered(created.id)).toHaveLength(5);
  });

  it("goes out for trips requested together wave by wave, each to its own nearest drivers", async () => {
    const blocks = [await cityBlock(), await cityBlock(), await cityBlock()];
    const created = await Promise.all(blocks.map(({ pickup }) => request(pickup)));
    // Their waves fall due together and go out in one pass.
    await waveLater();
    for (const [i, { drivers }] of blocks.entries()) expect(await offered(created[i].id)).toEqual(drivers.slice(0, 4));
    await waveLater();
    for (const [i, { drivers }] of blocks.entries()) expect(await offered(created[i].id)).toEqual(drivers.slice(0, 5));
  });

  it("stops going out once a driver takes it", async () => {
    const { pickup, drivers } = await cityBlock();
    const created = await request(pickup);
    expect((await post(app, "/viajes/accept_trip.php", { trip_id: created.id, conductor_id: drivers[1] })).status).toBe(200);
    await waveLater();
    await waveLater();
    expect(await offered(created.id)).toEqual(drivers.slice(0, 2));
  });
});
