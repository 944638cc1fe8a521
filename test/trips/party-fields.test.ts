import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { schema } from "../../src/graphql/schema.js";
import { createTestApp, type TestApp } from "../support/app.js";
import { post } from "../support/fixtures.js";
import { rootFieldSelection } from "../support/full-selection.js";
import { createDriver, createPassenger, requestTrip } from "../support/trips.js";

/*
 * A field someone may not read answers null for them, never a refusal that sinks the rest of the
 * answer: every field a trip's reads offer, selected at once by the people who make those reads.
 */

let app: TestApp;
const people = { passenger: 0, driver: 0, otherDriver: 0 };
const trips = { taken: 0, pending: 0 };
beforeAll(async () => {
  app = await createTestApp();
  people.driver = (await createDriver(app)).id;
  people.otherDriver = (await createDriver(app)).id;
  people.passenger = (await createPassenger(app)).id;
  trips.taken = (await requestTrip(app, people.passenger)).id;
  expect((await post(app, "/viajes/accept_trip.php", { trip_id: trips.taken, conductor_id: people.driver })).status).toBe(200);
  trips.pending = (await requestTrip(app, (await createPassenger(app)).id)).id;
});
afterAll(() => app.close());

const READS: Array<[string, keyof typeof people, () => string]> = [
  ["trip", "passenger", () => `(trip_id: ${trips.taken})`],
  ["trip", "driver", () => `(trip_id: ${trips.taken})`],
  ["trip", "otherDriver", () => `(trip_id: ${trips.pending})`],
  ["myTrips", "passenger", () => "(rol: pasajero, alcance: activos)"],
  ["myTrips", "driver", () => "(rol: conductor, alcance: activos)"],
  ["driverTrip", "driver", () => `(trip_id: ${trips.taken})`],
  ["driverProfile", "driver", () => ""],
  ["tripRequests", "otherDriver", () => ""],
];

describe("every field of a trip's reads", () => {
  it.each(READS)("answers in %s for the %s", async (name, who, args) => {
    const { selection, needsArguments } = rootFieldSelection(schema, "Query", name);
    expect([...needsArguments]).toEqual([]);
    const response = await app.graphql(`{ ${name}${args()} { ${selection} } }`, {}, people[who]);
    expect(response.errors, JSON.stringify(response.errors)).toBeUndefined();
    expect(response.status).toBe(200);
    const result = response.data[name] as { __typename: string; data?: unknown[] };
    expect(result.__typename, JSON.stringify(result)).not.toMatch(/Error$/);
    if (result.data) expect(result.data.length).toBeGreaterThan(0);
  });
});
