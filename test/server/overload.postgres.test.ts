import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.js";
import { createDriver, createPassenger } from "../support/trips.js";

// One connection, taken by a long transaction: whatever else needs the database waits for it.
let app: TestApp;
let base: string;
beforeAll(async () => {
  // Positions are stored only when the test says so.
  app = await createTestApp({ env: { DATABASE_POOL_SIZE: "1", DATABASE_POOL_TIMEOUT_MS: "200", POSITION_FLUSH_MS: "60000" } });
  base = `http://127.0.0.1:${(await app.server.start(0, "127.0.0.1")).port}`;
});
afterAll(() => app.close());

/** Takes the only connection for `seconds`; resolves once it is taken, with the end of the hold. */
async function holdTheConnection(seconds: number): Promise<{ released: Promise<unknown> }> {
  let taken!: () => void;
  const holding = new Promise<void>((resolve) => (taken = resolve));
  // An interactive transaction has its connection before its callback runs.
  const released = app.db.$transaction(
    async (tx) => {
      taken();
      await tx.$executeRawUnsafe(`SELECT pg_sleep(${seconds})`);
    },
    { timeout: 10_000 },
  );
  await holding;
  return { released };
}

describe("a database with no free connection", () => {
  it("answers 503 with Retry-After, legacy and GraphQL, never 500", async () => {
    const passenger = await createPassenger(app);
    const bearer = await app.bearer(passenger.id);
    const { released } = await holdTheConnection(1.5);
    const [legacy, graphql] = await Promise.all([
      fetch(`${base}/viajes/get_trip.php?trip_id=1`),
      fetch(`${base}/graphql`, {
        method: "POST",
        headers: { "content-type": "application/json", ...bearer },
        body: JSON.stringify({ query: `{ trip(trip_id: 1) { ... on Viaje { id } } }` }),
      }),
    ]);
    await released;
    expect([legacy.status, legacy.headers.get("retry-after"), await legacy.json()]).toEqual([
      503,
      "2",
      { success: false, message: expect.stringMatching(/ocupado/) },
    ]);
    const answer = await graphql.json();
    expect([graphql.status, graphql.headers.get("retry-after"), answer.errors?.[0]?.extensions?.code]).toEqual([
      503,
      "2",
      "SERVICE_UNAVAILABLE",
    ]);
  });

  it("keeps the positions it could not store for the next batch", async () => {
    const driver = await createDriver(app);
    await app.server.flushPositions();
    const ping = await fetch(`${base}/conductor/update_location.php`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ conductor_id: driver.id, latitud: 6.2301, longitud: -75.5701 }),
    });
    expect(ping.status).toBe(200);
    const { released } = await holdTheConnection(1);
    await app.server.flushPositions();
    await released;
    expect((await app.db.driverStatus.findUniqueOrThrow({ where: { conductor_id: driver.id } })).latitud).not.toBe(6.2301);
    await app.server.flushPositions();
    expect((await app.db.driverStatus.findUniqueOrThrow({ where: { conductor_id: driver.id } })).latitud).toBe(6.2301);
  });
});
