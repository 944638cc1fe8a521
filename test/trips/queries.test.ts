import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.js";
import { post } from "../support/fixtures.js";
import { FixedClock } from "../support/clock.js";
import { createDriver, createPassenger, requestTrip } from "../support/trips.js";

let app: TestApp;
const clock = new FixedClock("2026-03-10T15:00:00Z");
beforeAll(async () => {
  app = await createTestApp({ clock });
});
afterAll(() => app.close());

/** A passenger with `count` completed trips. */
async function passengerWithTrips(count: number) {
  const passenger = await createPassenger(app);
  const driver = await createDriver(app);
  for (let i = 0; i < count; i++) {
    const trip = await requestTrip(app, passenger.id);
    await post(app, "/viajes/accept_trip.php", { trip_id: trip.id, conductor_id: driver.id });
    await post(app, "/viajes/complete_trip.php", { trip_id: trip.id, precio_final: 10_000 });
  }
  return passenger;
}

/** How many SQL statements `work` sends. */
async function queriesOf(work: () => Promise<unknown>) {
  const before = app.queries.length;
  await work();
  return app.queries.length - before;
}

describe("trip lists", () => {
  it("cost the same number of queries for 2 trips as for 8 (no N+1)", async () => {
    const few = await passengerWithTrips(2);
    const many = await passengerWithTrips(8);
    const legacy = (id: number) => () => app.legacy("GET", "/viajes/get_trip_history.php", { usuario_id: String(id) });
    expect(await queriesOf(legacy(many.id))).toBe(await queriesOf(legacy(few.id)));

    const MY_TRIPS = `{
      myTrips(rol: pasajero, alcance: historial) {
        ... on QueryMyTripsSuccess { data { id pasajero { nombre location { ciudad } } conductor { nombre } } }
      }
    }`;
    const graphql = (id: number) => () => app.graphql(MY_TRIPS, {}, id);
    // Signed in beforehand: opening the session is not part of the list's cost.
    await Promise.all([app.token(few.id), app.token(many.id)]);
    const fewQueries = await queriesOf(graphql(few.id));
    expect(await queriesOf(graphql(many.id))).toBe(fewQueries);
    expect(fewQueries).toBeGreaterThan(0);
    // Two of them find the caller's session and user.
    expect(fewQueries).toBeLessThanOrEqual(7);
  });
});
