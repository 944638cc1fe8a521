import { setTimeout as delay } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { watchOn } from "../../bench/app-load.js";
import { DEPLOYED_APP, NEXT_APP, type SeededSessions } from "../../bench/app-users.js";
import { seedCity, type SeededCity } from "../../bench/seed.js";
import { createTestApp, type TestApp } from "../support/app.js";

let app: TestApp;
let city: SeededCity;
let sessions: SeededSessions;
let port: number;

beforeAll(async () => {
  app = await createTestApp();
  // The server as the bench starts it, WebSockets included.
  ({ port } = await app.server.start(0, "127.0.0.1"));
  city = await seedCity(app.db, { drivers: 6, passengers: 13, pendingTrips: 6, now: app.server.deps.clock.now() });
  const tokens = (ids: number[]) => Promise.all(ids.map((id) => app.token(id)));
  sessions = { drivers: await tokens(city.drivers.map((d) => d.conductor_id)), passengers: await tokens(city.passengerIds) };
  // Online, as the bench's drivers are to the server that seeded them (it reads presence at start; this app started first).
  for (const driver of city.drivers) {
    await app.graphql(
      `mutation ($lat: Float!, $lng: Float!) { updateDriverLocation(latitud: $lat, longitud: $lng, disponibilidad: 1) { __typename } }`,
      { lat: driver.latitud, lng: driver.longitud },
      driver.conductor_id,
    );
  }
});
afterAll(() => app?.close());

/** A watch opened as the bench opens it, with what it heard by the time `settle` resolves. */
async function watch(subscription: ReturnType<(typeof NEXT_APP.watches)[number]["subscription"]>, settle: () => Promise<unknown>) {
  const heard: string[] = [];
  let acknowledged = false;
  const close = watchOn(
    port,
    subscription,
    (what) => heard.push(what),
    () => (acknowledged = true),
  );
  await settle();
  await close();
  return { acknowledged, heard };
}

describe("the app-load profiles", () => {
  for (const profile of [DEPLOYED_APP, NEXT_APP]) {
    it(`${profile.name}: every request of every kind of user succeeds`, async () => {
      for (const stream of profile.streams) {
        // Not user 0: the first driver drives the seeded accepted trip, and cannot look for others here.
        for (const user of [1, 2]) {
          const request = stream.request(user, city, sessions);
          const response = await fetch(`http://127.0.0.1:${port}${request.path}`, {
            method: request.method,
            headers: request.headers,
            body: request.body,
          });
          expect(`${stream.label} (user ${user}): ${await response.text()}`).toContain('"success":true');
        }
      }
    });
  }

  it("next app version: the waiting passenger follows their own trip, and hears it change", async () => {
    const tripUpdated = NEXT_APP.watches.find((w) => w.label.includes("tripUpdated"))!;
    const subscription = tripUpdated.subscription(1, city, sessions);
    const tripId = subscription.variables.id as number;
    const owner = city.passengerIds[city.passengerIds.length - city.pendingTripIds.length + 1]!;
    const heard = await watch(subscription, async () => {
      await delay(300);
      const cancelled = await app.graphql(
        `mutation ($id: Int!) { cancelTrip(trip_id: $id, motivo: "ya no lo necesito") { __typename } }`,
        { id: tripId },
        owner,
      );
      expect(JSON.stringify(cancelled)).not.toContain("errors");
      await delay(300);
    });
    // The trip ended, so the subscription did: the bench counts that as a failure, so it only follows pending trips.
    expect(heard).toEqual({ acknowledged: true, heard: ["completed: the subscription ended"] });
  });

  it("next app version: each driver's request feed is accepted for their own session, and another's is refused", async () => {
    const tripRequests = NEXT_APP.watches.find((w) => w.label.includes("tripRequests"))!;
    const own = tripRequests.subscription(2, city, sessions);
    expect(await watch(own, () => delay(400))).toEqual({ acknowledged: true, heard: [] });
    const anothers = { ...own, token: sessions.drivers[3]! };
    const refused = await watch(anothers, () => delay(400));
    expect(refused.acknowledged).toBe(true);
    expect(refused.heard[0]).toMatch(/^errors: .*FORBIDDEN/);
  });
});
