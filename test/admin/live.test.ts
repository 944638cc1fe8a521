import type { Client } from "graphql-ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.js";
import { FixedClock } from "../support/clock.js";
import { newAdmin } from "../support/drivers.js";
import { post } from "../support/fixtures.js";
import { connect, subscribe } from "../support/ws.js";
import { createDriver, createPassenger, ESTADIO, LLERAS, requestTrip } from "../support/trips.js";

/** The operations console's live map: the drivers online in an area, and what changes, to administrators only. */

let app: TestApp;
let clock: FixedClock;
let port: number;
let admin: { id: number };
const clients: Client[] = [];
beforeAll(async () => {
  clock = new FixedClock(new Date());
  app = await createTestApp({ clock });
  ({ port } = await app.server.start(0, "127.0.0.1"));
  admin = await newAdmin(app);
});
afterAll(async () => {
  await Promise.all(clients.map((client) => client.dispose()));
  await app.close();
});

const as = async (userId: number) => {
  const client = await connect(port, await app.bearer(userId));
  clients.push(client);
  return client;
};

/** About a kilometre around the Parque Lleras; the stadium is 6 km north-west. */
const AROUND_LLERAS = {
  norte: LLERAS.latitud + 0.01,
  sur: LLERAS.latitud - 0.01,
  este: LLERAS.longitud + 0.01,
  oeste: LLERAS.longitud - 0.01,
};
const LIVE_DRIVERS = `query ($norte: Float!, $sur: Float!, $este: Float!, $oeste: Float!) {
  liveDrivers(norte: $norte, sur: $sur, este: $este, oeste: $oeste) {
    __typename
    ... on Error { message }
    ... on QueryLiveDriversSuccess { data { conductor_id nombre tipo_vehiculo estado latitud longitud posicion_en viaje_activo_id } }
  }
}`;
const LIVE = `subscription ($norte: Float, $sur: Float, $este: Float, $oeste: Float) {
  liveOperations(norte: $norte, sur: $sur, este: $este, oeste: $oeste) {
    conductores { conductor_id estado latitud longitud viaje_activo_id }
    salidas
    viajes { id estado }
  }
}`;

const liveDrivers = async (box: Record<string, number>, as = admin.id) => (await app.graphql(LIVE_DRIVERS, box, as)).data.liveDrivers;
const ping = (conductorId: number, at: { latitud: number; longitud: number }) =>
  app.graphql(
    `mutation ($lat: Float!, $lng: Float!) { updateDriverLocation(latitud: $lat, longitud: $lng) { __typename } }`,
    { lat: at.latitud, lng: at.longitud },
    conductorId,
  );

describe("liveDrivers", () => {
  it("shows the drivers online inside the area, approximately placed, with their state and trip", async () => {
    const free = await createDriver(app, { at: { latitud: 6.208_63, longitud: -75.565_87 }, tipo: "moto" });
    const far = await createDriver(app, { at: ESTADIO });
    const busy = await createDriver(app, { at: LLERAS });
    const trip = await requestTrip(app, (await createPassenger(app)).id);
    expect((await post(app, "/viajes/accept_trip.php", { trip_id: trip.id, conductor_id: busy.id })).status).toBe(200);

    const seen = (await liveDrivers(AROUND_LLERAS)).data;
    const byId = new Map(seen.map((driver: { conductor_id: number }) => [driver.conductor_id, driver]));
    expect(byId.get(free.id)).toMatchObject({
      nombre: expect.any(String),
      tipo_vehiculo: "moto",
      estado: "libre",
      latitud: 6.209,
      longitud: -75.566,
      viaje_activo_id: null,
    });
    expect(byId.get(busy.id)).toMatchObject({ estado: "en_viaje", viaje_activo_id: trip.id });
    expect(byId.has(far.id)).toBe(false);
  });

  it("shows a driver whose documents expired while online as kept from trips", async () => {
    const driver = await createDriver(app, { at: LLERAS, online: false });
    const hour = 3600 * 1000;
    await app.db.vehicle.update({ where: { conductor_id: driver.id }, data: { soat_vencimiento: new Date(clock.now().getTime() + hour) } });
    await app.graphql(
      `mutation ($lat: Float!, $lng: Float!) { updateDriverLocation(latitud: $lat, longitud: $lng, disponibilidad: 1) { __typename } }`,
      { lat: LLERAS.latitud, lng: LLERAS.longitud },
      driver.id,
    );
    const state = async () =>
      (await liveDrivers(AROUND_LLERAS)).data.find((d: { conductor_id: number }) => d.conductor_id === driver.id)?.estado;
    expect(await state()).toBe("libre");
    clock.advance(2 * hour);
    expect(await state()).toBe("documentos_vencidos");
  });

  it("refuses an area upside down or off the globe in Spanish, and everyone but administrators", async () => {
    expect(await liveDrivers({ ...AROUND_LLERAS, sur: 7 })).toMatchObject({
      __typename: "ValidationError",
      message: expect.stringMatching(/sur/),
    });
    expect(await liveDrivers({ ...AROUND_LLERAS, este: 200 })).toMatchObject({
      __typename: "ValidationError",
      message: expect.stringMatching(/este.*-180 y 180/),
    });
    const passenger = await createPassenger(app);
    expect(await liveDrivers(AROUND_LLERAS, passenger.id)).toMatchObject({ __typename: "ForbiddenError" });
    expect((await app.graphql(LIVE_DRIVERS, AROUND_LLERAS)).status).toBe(401);
  });
});

describe("liveOperations", () => {
  it("starts with the drivers of the area, then sends each trip as it changes and each driver who moved or left, at most once a second", async () => {
    const driver = await createDriver(app, { at: LLERAS });
    const live = await subscribe(await as(admin.id), LIVE, AROUND_LLERAS);
    const first = (await live.next()).liveOperations;
    expect(first.conductores).toContainEqual(expect.objectContaining({ conductor_id: driver.id, estado: "libre" }));
    expect(first.salidas).toEqual([]);

    const passenger = await createPassenger(app);
    const trip = await requestTrip(app, passenger.id);
    const next = async () => (await live.next(3000)).liveOperations;
    // Trips as they change, on their own, not waiting for the next look at the drivers.
    let change = await next();
    while (change.viajes.length === 0) change = await next();
    expect(change.viajes).toEqual([{ id: trip.id, estado: "pendiente" }]);

    // Pings every 100 ms for 2.5 s, each from a place none before it had (a 5 × 5 grid, 200 m
    // apart, so that two looks never see the same place however the pings fall between them),
    // reach the console once a second at most; then leaving the area is said once.
    const began = Date.now();
    const pinging = (async () => {
      for (let step = 0; step < 25; step++) {
        const at = {
          latitud: LLERAS.latitud + 0.001 + ((step % 5) - 2) * 0.002,
          longitud: LLERAS.longitud + (Math.floor(step / 5) - 2) * 0.002,
        };
        await ping(driver.id, at);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      await ping(driver.id, ESTADIO);
      return (Date.now() - began) / 1000;
    })();
    let moves = 0;
    for (;;) {
      const event = await next();
      if (event.conductores.some((d: { conductor_id: number }) => d.conductor_id === driver.id)) moves++;
      if (event.salidas.includes(driver.id)) break;
    }
    const seconds = await pinging;
    expect(moves).toBeGreaterThanOrEqual(2);
    expect(moves).toBeLessThanOrEqual(Math.ceil(seconds) + 1);
    await post(app, "/viajes/cancel_trip.php", { trip_id: trip.id, motivo: "Prueba" });
    let cancelled = await next();
    while (cancelled.viajes.length === 0) cancelled = await next();
    expect(cancelled.viajes).toEqual([{ id: trip.id, estado: "cancelado" }]);
    await live.close();
  });

  it("is for administrators only, with a whole area or none", async () => {
    const passenger = await createPassenger(app);
    await expect((await subscribe(await as(passenger.id), LIVE, {})).next()).rejects.toThrow(/administrador/);
    await expect((await subscribe(await as(admin.id), LIVE, { norte: 6.3 })).next()).rejects.toThrow(/norte, sur, este y oeste/);
  });

  it("ends when the administrator's session is revoked", async () => {
    const token = await app.token(admin.id);
    const client = await connect(port, { authorization: `Bearer ${token}` });
    clients.push(client);
    const closed = new Promise<number>((resolve) => client.on("closed", (event) => resolve((event as { code: number }).code)));
    const live = await subscribe(client, LIVE, {});
    await live.next();
    await app.graphql(`mutation { logout { __typename } }`, {}, admin.id);
    expect(await closed).toBe(4403);
    await expect(live.next(2000)).rejects.toThrow();
  });
});
