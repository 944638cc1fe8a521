import { print } from "graphql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tripRoutes } from "../../src/rest/routes/trips/index.js";
import { createTestApp, type TestApp } from "../support/app.js";
import { post } from "../support/fixtures.js";
import { FixedClock } from "../support/clock.js";
import { createDriver, createPassenger, LLERAS, requestTrip, tripIn } from "../support/trips.js";

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
  return (await statementsOf(work)).length;
}

/**
 * The SQL statements `work` sends. Drivers' positions waiting for their batch are written first: on
 * a busy machine, the batch's timer could otherwise fire within `work` and count as its statement.
 */
async function statementsOf(work: () => Promise<unknown>) {
  await app.server.flushPositions();
  const before = app.queries.length;
  await work();
  return app.queries.slice(before);
}

/** Statements that read the trips table (SQLite and PostgreSQL spellings, quoted or not). */
const tripReads = (statements: string[]) => statements.filter((sql) => /\bFROM\s+(?:[`"]\w+[`"]\.)?[`"]?viajes\b/i.test(sql));

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

  it("read the trips once, with the passenger's first name the lists show", async () => {
    const passenger = await createPassenger(app);
    await requestTrip(app, passenger.id);
    const active = () => app.legacy("GET", "/viajes/get_active_trips.php", { usuario_id: String(passenger.id) });
    await active();
    const statements = await statementsOf(active);
    expect((await active()).body.trips).toHaveLength(1);
    expect(tripReads(statements)).toHaveLength(1);
  });
});

describe("a driver's pending requests", () => {
  it("are read once, with each passenger's first name", async () => {
    const driver = await createDriver(app);
    for (let i = 0; i < 3; i++) await requestTrip(app, (await createPassenger(app)).id);
    const poll = () => app.legacy("GET", "/conductor/get_pending_requests.php", { conductor_id: String(driver.id) });
    // The first poll records the requests as shown; the next one only reads.
    await poll();
    const statements = await statementsOf(poll);
    const { solicitudes } = (await poll()).body;
    expect(solicitudes.length).toBeGreaterThanOrEqual(3);
    for (const request of solicitudes) expect(request.cliente_nombre).toEqual(expect.any(String));
    expect(tripReads(statements)).toHaveLength(1);
  });
});

describe("the reads the apps repeat, signed in with a token", () => {
  it("each send one statement, which reads the rows the answer shows with the trip's", async () => {
    const { passenger, trip } = await tripIn(app, "aceptado");
    const asPassenger = await app.bearer(passenger.id);
    const driverShown = {
      conductor: { nombre: expect.any(String), telefono: expect.any(String), vehiculo: { placa: expect.any(String) } },
    };
    const polls: Array<[string, Record<string, string>, (body: any) => unknown, unknown]> = [
      ["/viajes/get_trip.php", { trip_id: String(trip.id) }, (body) => body.trip, driverShown],
      ["/user/get_trip_status.php", { solicitud_id: String(trip.id) }, (body) => body.trip, driverShown],
      [
        "/viajes/get_active_trips.php",
        { usuario_id: String(passenger.id) },
        (body) => body.viajes[0],
        { cliente_nombre: expect.any(String) },
      ],
    ];
    for (const [path, query, shown, expected] of polls) {
      const poll = () => app.legacy("GET", path, query, asPassenger);
      await poll();
      const statements = await statementsOf(poll);
      const { body } = await poll();
      expect(shown(body), path).toMatchObject(expected as object);
      expect(statements, path).toHaveLength(1);
      expect(tripReads(statements), path).toHaveLength(1);
    }

    // The same document over /graphql.
    const route = tripRoutes.find((r) => r.path === "/viajes/get_trip.php")!;
    const read = () => app.graphql(print(route.document.document), { trip_id: trip.id }, passenger.id);
    const statements = await statementsOf(read);
    expect((await read()).data.trip.conductor.nombre).toEqual(expect.any(String));
    expect(statements).toHaveLength(1);

    // A driver looking for trips where one waits: the first look records the request as shown.
    const looking = await createDriver(app);
    await requestTrip(app, (await createPassenger(app)).id);
    const asDriver = await app.bearer(looking.id);
    const where = { conductor_id: looking.id, latitud_actual: LLERAS.latitud, longitud_actual: LLERAS.longitud };
    const look = () => app.legacy("POST", "/conductor/get_solicitudes_pendientes.php", where, asDriver);
    await look();
    const lookStatements = await statementsOf(look);
    const { solicitudes } = (await look()).body;
    expect(solicitudes.length).toBeGreaterThanOrEqual(1);
    for (const request of solicitudes) expect(request.cliente_nombre).toEqual(expect.any(String));
    expect(lookStatements).toHaveLength(1);
    expect(tripReads(lookStatements)).toHaveLength(1);
  });
});
