import type { Client } from "graphql-ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.js";
import { activeCompany, field, fleetDriver, signUpCompany } from "../support/companies.js";
import { newAdmin } from "../support/drivers.js";
import { post } from "../support/fixtures.js";
import { connect, subscribe } from "../support/ws.js";
import { createDriver, createPassenger, LLERAS, requestTrip } from "../support/trips.js";

/** The live map through the operations console's subscription: a company's managers get their own drivers and trips only. */

let app: TestApp;
let port: number;
let admin: { id: number };
let a: Awaited<ReturnType<typeof activeCompany>>;
let b: Awaited<ReturnType<typeof activeCompany>>;
const clients: Client[] = [];
beforeAll(async () => {
  app = await createTestApp();
  ({ port } = await app.server.start(0, "127.0.0.1"));
  admin = await newAdmin(app);
  a = await activeCompany(app, admin.id, "Flota Aburrá");
  b = await activeCompany(app, admin.id, "Flota Oriente");
});
afterAll(async () => {
  await Promise.all(clients.map((client) => client.dispose()));
  await app.close();
});

const LIVE = `subscription ($e: Int) {
  liveOperations(empresa_id: $e) {
    conductores { conductor_id estado latitud }
    salidas
    viajes { id estado usuario_id conductor_id }
  }
}`;

interface Changes {
  conductores: Array<{ conductor_id: number; estado: string; latitud: number }>;
  salidas: number[];
  viajes: Array<{ id: number; estado: string; usuario_id: number | null; conductor_id: number | null }>;
}

const watch = async (userId: number, variables: Record<string, unknown> = {}) => {
  const client = await connect(port, await app.bearer(userId));
  clients.push(client);
  return subscribe<{ liveOperations: Changes }>(client, LIVE, variables);
};

/** Every change sent until (and including) the first one `done` accepts. */
async function changesUntil(live: Awaited<ReturnType<typeof watch>>, done: (changes: Changes) => boolean): Promise<Changes[]> {
  const seen: Changes[] = [];
  for (;;) {
    const changes = (await live.next()).liveOperations;
    seen.push(changes);
    if (done(changes)) return seen;
  }
}

const driverIds = (seen: Changes[]) => new Set(seen.flatMap((changes) => changes.conductores.map((driver) => driver.conductor_id)));
const tripIds = (seen: Changes[]) => new Set(seen.flatMap((changes) => changes.viajes.map((trip) => trip.id)));
const ping = (conductorId: number, latitud: number) =>
  app.graphql(
    `mutation ($lat: Float!, $lng: Float!) { updateDriverLocation(latitud: $lat, longitud: $lng) { __typename } }`,
    { lat: latitud, lng: LLERAS.longitud },
    conductorId,
  );
const accept = async (trip: { id: number }, driver: { id: number }) =>
  expect((await post(app, "/viajes/accept_trip.php", { trip_id: trip.id, conductor_id: driver.id })).status).toBe(200);

describe("liveOperations for a company's manager", () => {
  it("carries the company's drivers and the trips done for it, without who rode them, and nothing of anyone else", async () => {
    const mine = await fleetDriver(app, a.company.id);
    const theirs = await fleetDriver(app, b.company.id);
    const nobodys = await createDriver(app);
    const live = await watch(a.manager.id);
    const everything = await watch(admin.id);
    const first = await live.next();
    expect(first.liveOperations.conductores.map((driver) => driver.conductor_id)).toEqual([mine.id]);

    // Their trip first, then ours: once ours arrives, theirs would have arrived before it (events keep their order).
    const theirTrip = await requestTrip(app, (await createPassenger(app)).id);
    await accept(theirTrip, theirs);
    const passenger = await createPassenger(app);
    const myTrip = await requestTrip(app, passenger.id);
    await accept(myTrip, mine);
    const seen = await changesUntil(live, (changes) => changes.viajes.some((trip) => trip.id === myTrip.id));
    expect(tripIds(seen)).toEqual(new Set([myTrip.id]));
    expect(seen.flatMap((changes) => changes.viajes)).toEqual([
      { id: myTrip.id, estado: "aceptado", usuario_id: null, conductor_id: mine.id },
    ]);
    // Administrators still get every trip, the pending requests and whose they are included.
    const all = await changesUntil(everything, (changes) =>
      changes.viajes.some((trip) => trip.id === myTrip.id && trip.estado === "aceptado"),
    );
    expect(tripIds(all)).toEqual(new Set([theirTrip.id, myTrip.id]));
    expect(all.flatMap((changes) => changes.viajes).find((trip) => trip.id === myTrip.id)?.usuario_id).toBe(passenger.id);

    // The other drivers move first, then ours: the look that sends our move has nothing of theirs.
    await ping(theirs.id, LLERAS.latitud + 0.004);
    await ping(nobodys.id, LLERAS.latitud + 0.004);
    await ping(mine.id, LLERAS.latitud + 0.004);
    const moves = await changesUntil(live, (changes) => changes.conductores.some((driver) => driver.conductor_id === mine.id));
    expect(driverIds(moves)).toEqual(new Set([mine.id]));
    expect(moves.flatMap((changes) => changes.salidas)).toEqual([]);
  });

  it("loses a driver who leaves the company and gains one who joins, at the next look", async () => {
    const leaving = await fleetDriver(app, a.company.id, { at: { latitud: 6.22, longitud: LLERAS.longitud } });
    const joining = await fleetDriver(app, b.company.id, { at: { latitud: 6.22, longitud: LLERAS.longitud } });
    const live = await watch(a.manager.id);
    const box = (await live.next()).liveOperations.conductores.map((driver) => driver.conductor_id);
    expect(box).toContain(leaving.id);
    expect(box).not.toContain(joining.id);

    const ended = `mutation ($id: Int!) { endCompanyAffiliation(conductor_id: $id) { __typename } }`;
    expect(await field(app, ended, { id: leaving.id }, a.manager.id)).toEqual({ __typename: "Usuario" });
    const left = await changesUntil(live, (changes) => changes.salidas.includes(leaving.id));
    expect(driverIds(left).has(leaving.id)).toBe(false);

    const assign = `mutation ($id: Int!, $e: Int!) { updateUser(user_id: $id, input: { empresa_id: $e }) { __typename } }`;
    expect(await field(app, assign, { id: joining.id, e: a.company.id }, admin.id)).toEqual({ __typename: "Usuario" });
    await changesUntil(live, (changes) => changes.conductores.some((driver) => driver.conductor_id === joining.id));

    // What the one who left does is no longer the company's.
    await ping(leaving.id, 6.225);
    await ping(joining.id, 6.225);
    const moves = await changesUntil(live, (changes) => changes.conductores.some((driver) => driver.conductor_id === joining.id));
    expect(driverIds(moves).has(leaving.id)).toBe(false);
  });

  it("is refused to a manager naming another company and to a company waiting for review; an administrator may name one", async () => {
    const named = await watch(admin.id, { e: b.company.id });
    const theirs = (await named.next()).liveOperations.conductores;
    const ofB = await app.db.user.findMany({ where: { empresa_id: b.company.id, tipo_usuario: "conductor" }, select: { id: true } });
    expect(theirs.every((driver) => ofB.some((user) => user.id === driver.conductor_id))).toBe(true);
    expect(theirs.length).toBeGreaterThan(0);

    await expect((await watch(a.manager.id, { e: b.company.id })).next()).rejects.toThrow(/tu propia empresa/);
    const pending = await signUpCompany(app);
    await expect((await watch(pending.manager.id)).next()).rejects.toThrow(/revisión/);
  });
});
