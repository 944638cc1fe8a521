import type { Client } from "graphql-ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { schema } from "../../src/graphql/schema.js";
import { createTestApp, type TestApp } from "../support/app.js";
import { activeCompany, field, fleetDriver } from "../support/companies.js";
import { newAdmin, newDriver } from "../support/drivers.js";
import { post } from "../support/fixtures.js";
import { rootFieldSelection } from "../support/full-selection.js";
import { connect, subscribe } from "../support/ws.js";
import { completedTrip, createPassenger, ESTADIO, LLERAS, requestTrip } from "../support/trips.js";

/**
 * What a company's manager is offered, read whole: every field of every type their operations
 * answer, selected at once. Each must answer (a field a manager may not read would sink the rest
 * of the answer with it), so a type a manager reaches offers nothing the manager is refused.
 */

let app: TestApp;
let port: number;
let manager: number;
/** Arguments of the operations that need them, for the world below. */
let named: { conductor_id: number; incidente_id: number };
/** The trip under way, which the live feed sends once it changes. */
let underWay: number;
const clients: Client[] = [];

beforeAll(async () => {
  // The whole of a type is deeper and larger than any document the console sends: the limits make room for it.
  app = await createTestApp({
    env: { GRAPHQL_MAX_DEPTH: "40", GRAPHQL_MAX_TOKENS: "200000", GRAPHQL_MAX_COST: "1000000", GRAPHQL_MAX_ALIASES: "15" },
  });
  ({ port } = await app.server.start(0, "127.0.0.1"));
  const admin = await newAdmin(app);
  const company = await activeCompany(app, admin.id);
  manager = company.manager.id;
  const driver = await fleetDriver(app, company.company.id);
  // A trip under way and one completed, both done for the company, an SOS from the first, a driver asking to join.
  await completedTrip(app, driver, {}, 18_000);
  const passenger = await createPassenger(app);
  const trip = await requestTrip(app, passenger.id);
  expect((await post(app, "/viajes/accept_trip.php", { trip_id: trip.id, conductor_id: driver.id })).status).toBe(200);
  const sos = await post(app, "/user/sos.php", { viaje_id: trip.id, usuario_id: passenger.id, ...LLERAS });
  expect(sos.status, JSON.stringify(sos.body)).toBe(200);
  const asking = await newDriver(app);
  await field(
    app,
    `mutation ($e: Int!) { requestCompanyAffiliation(empresa_id: $e) { __typename } }`,
    { e: company.company.id },
    asking.id,
  );
  // A trip booked ahead, which the company's driver committed to.
  const booked = await field(
    app,
    `mutation ($input: ReservaInput!) { bookTrip(input: $input) { ... on Reserva { id } ... on Error { message } } }`,
    {
      input: {
        tipo_servicio: "auto",
        origen: LLERAS,
        destino: ESTADIO,
        fecha_programada: new Date(Date.now() + 2 * 86_400_000).toISOString(),
      },
    },
    passenger.id,
  );
  const committed = await field(
    app,
    `mutation ($id: Int!) { commitToReservation(reserva_id: $id) { __typename } }`,
    { id: booked.id },
    driver.id,
  );
  expect(committed.__typename).toBe("Reserva");
  named = { conductor_id: driver.id, incidente_id: sos.body.incidente.id };
  underWay = trip.id;
});
afterAll(async () => {
  await Promise.all(clients.map((client) => client.dispose()));
  await app.close();
});

/** A manager's queries, with the arguments those that need one take. */
const QUERIES: Record<string, (n: typeof named) => Record<string, unknown>> = {
  myCompany: () => ({}),
  companyFigures: () => ({}),
  companyDrivers: () => ({}),
  companyDriver: (n) => ({ conductor_id: n.conductor_id }),
  companyTrips: () => ({}),
  companyReservations: () => ({}),
  companyManagers: () => ({}),
  companyAffiliations: () => ({}),
  affiliationHistory: (n) => ({ conductor_id: n.conductor_id }),
  companyBalance: () => ({}),
  companyMovements: () => ({}),
  payouts: () => ({}),
  payoutAccounts: () => ({}),
  sosIncidents: () => ({}),
  sosIncident: (n) => ({ incidente_id: n.incidente_id }),
};

const literal = (value: unknown) => JSON.stringify(value);
const call = (name: string, args: Record<string, unknown>) => {
  const listed = Object.entries(args).map(([key, value]) => `${key}: ${literal(value)}`);
  return listed.length > 0 ? `${name}(${listed.join(", ")})` : name;
};

describe("every field a company's manager is offered", () => {
  it.each(Object.keys(QUERIES))("answers in %s", async (name) => {
    const { selection, needsArguments } = rootFieldSelection(schema, "Query", name);
    expect([...needsArguments]).toEqual([]);
    const response = await app.graphql(`{ ${call(name, QUERIES[name]!(named))} { ${selection} } }`, {}, manager);
    expect(response.errors, JSON.stringify(response.errors)).toBeUndefined();
    expect(response.status).toBe(200);
    const result = response.data[name] as { __typename?: string } | unknown[];
    if (!Array.isArray(result)) expect(result.__typename, JSON.stringify(result)).not.toMatch(/Error$/);
  });

  it("answers in liveOperations, over graphql-ws", async () => {
    const { selection, needsArguments } = rootFieldSelection(schema, "Subscription", "liveOperations");
    expect([...needsArguments]).toEqual([]);
    const client = await connect(port, await app.bearer(manager));
    clients.push(client);
    const live = await subscribe(client, `subscription { liveOperations { ${selection} } }`);
    // First the company's drivers; a trip once it changes.
    expect((await live.next()).liveOperations.conductores.length).toBeGreaterThan(0);
    expect((await post(app, "/viajes/start_trip.php", { trip_id: underWay })).status).toBe(200);
    for (;;) {
      const changes = (await live.next()).liveOperations;
      if (changes.viajes.length > 0) break;
    }
    await live.close();
  });
});
