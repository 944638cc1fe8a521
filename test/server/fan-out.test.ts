import { setTimeout as delay } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { announce, createNotification } from "../../src/domain/notifications/notifications.js";
import { createTestApp, type TestApp } from "../support/app.js";
import { newAdmin } from "../support/drivers.js";
import { post } from "../support/fixtures.js";
import { createDriver, createPassenger, requestTrip } from "../support/trips.js";

let app: TestApp;
let port: number;
const peers: Peer[] = [];
beforeAll(async () => {
  app = await createTestApp();
  ({ port } = await app.server.start(0, "127.0.0.1"));
});
afterAll(async () => {
  for (const peer of peers) peer.socket.terminate();
  await app.close();
});

// conductores_avisados counts the trip's offers in the database each time it is resolved: one
// such query per execution of the subscription.
const TRIP_UPDATED = `subscription ($id: Int!) { tripUpdated(trip_id: $id) { id estado conductor_id conductores_avisados } }`;
const executions = () => app.queries.filter((sql) => /count/i.test(sql) && sql.includes("ofertas_viaje")).length;

/** A graphql-transport-ws client by hand, so that the messages are seen as the server wrote them. */
interface Peer {
  socket: WebSocket;
  /** Messages received and not yet taken. */
  inbox: string[];
  subscribe(id: string, query: string, variables?: Record<string, unknown>): void;
  /** The next message, as received; rejects after `timeoutMs` without one. */
  next(timeoutMs?: number): Promise<string>;
}

async function peer(userId?: number): Promise<Peer> {
  const socket = new WebSocket(`ws://127.0.0.1:${port}/graphql`, "graphql-transport-ws");
  const inbox: string[] = [];
  let waiting: (() => void) | null = null;
  socket.on("message", (data) => {
    inbox.push(String(data));
    waiting?.();
  });
  await new Promise((resolve, reject) => socket.once("open", resolve).once("error", reject));
  const authorization = userId === undefined ? {} : await app.bearer(userId);
  socket.send(JSON.stringify({ type: "connection_init", payload: authorization }));
  const self: Peer = {
    socket,
    inbox,
    subscribe: (id, query, variables = {}) => socket.send(JSON.stringify({ id, type: "subscribe", payload: { query, variables } })),
    async next(timeoutMs = 5000) {
      if (inbox.length === 0) {
        await new Promise<void>((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error("no message within the time limit")), timeoutMs);
          waiting = () => {
            clearTimeout(timer);
            waiting = null;
            resolve();
          };
        });
      }
      return inbox.shift()!;
    },
  };
  expect(JSON.parse(await self.next())).toEqual({ type: "connection_ack" });
  peers.push(self);
  return self;
}

/** graphql-ws does not acknowledge a subscription: give the server a moment to register it. */
const registered = () => delay(300);

const data = (message: string) => JSON.parse(message).payload.data;

async function pendingTrip() {
  const passenger = await createPassenger(app);
  const driver = await createDriver(app);
  const trip = await requestTrip(app, passenger.id);
  return { passenger, driver, trip };
}

const accept = async (tripId: number, driverId: number) =>
  expect((await post(app, "/viajes/accept_trip.php", { trip_id: tripId, conductor_id: driverId })).status).toBe(200);

describe("subscriptions shared between sockets", () => {
  it("executes once per event for every socket with the same document, variables and visibility", async () => {
    const { passenger, driver, trip } = await pendingTrip();
    const sockets = [await peer(passenger.id), await peer(passenger.id), await peer(passenger.id)];
    for (const [i, socket] of sockets.entries()) socket.subscribe(`s${i}`, TRIP_UPDATED, { id: trip.id });
    await registered();

    const before = executions();
    await accept(trip.id, driver.id);
    const received = await Promise.all(sockets.map((socket) => socket.next()));
    expect(executions() - before).toBe(1);
    for (const message of received)
      expect(data(message).tripUpdated).toEqual({ id: trip.id, estado: "aceptado", conductor_id: driver.id, conductores_avisados: 1 });
  });

  it("writes the same payload to every socket, each under its own subscription id", async () => {
    const { passenger, driver, trip } = await pendingTrip();
    const ids = ["primera", "2", "tercera-3"];
    const sockets = [await peer(passenger.id), await peer(passenger.id), await peer(passenger.id)];
    for (const [i, socket] of sockets.entries()) socket.subscribe(ids[i]!, TRIP_UPDATED, { id: trip.id });
    await registered();

    await accept(trip.id, driver.id);
    const received = await Promise.all(sockets.map((socket) => socket.next()));
    const payload = JSON.stringify(JSON.parse(received[0]!).payload);
    expect(received).toEqual(ids.map((id) => `{"id":${JSON.stringify(id)},"type":"next","payload":${payload}}`));
  });

  it("shares between administrators, not between callers who see differently", async () => {
    const { passenger, driver, trip } = await pendingTrip();
    const [admin, otherAdmin] = [await newAdmin(app), await newAdmin(app)];
    const sockets = [await peer(admin.id), await peer(otherAdmin.id), await peer(passenger.id)];
    for (const socket of sockets) socket.subscribe("viaje", TRIP_UPDATED, { id: trip.id });
    await registered();

    const before = executions();
    await accept(trip.id, driver.id);
    await Promise.all(sockets.map((socket) => socket.next()));
    // One execution for both administrators, one for the passenger.
    expect(executions() - before).toBe(2);
  });

  it("gives a driver's request feed without the passenger and the same feed to an administrator with them", async () => {
    const PEREIRA = { direccion: "Plaza de Bolívar, Pereira", latitud: 4.8133, longitud: -75.6961 };
    const driver = await createDriver(app, { at: PEREIRA });
    const admin = await newAdmin(app);
    const FEED = `subscription ($id: Int!) { tripRequests(conductorId: $id) { tipo viaje { id pasajero { id } } } }`;
    const [mine, watched] = [await peer(driver.id), await peer(admin.id)];
    mine.subscribe("feed", FEED, { id: driver.id });
    watched.subscribe("feed", FEED, { id: driver.id });
    await registered();

    const passenger = await createPassenger(app);
    const trip = await requestTrip(app, passenger.id, {
      origen: PEREIRA,
      destino: { direccion: "Circunvalar", latitud: 4.8087, longitud: -75.6847 },
    });
    expect(data(await mine.next()).tripRequests).toEqual({ tipo: "nueva", viaje: { id: trip.id, pasajero: null } });
    expect(data(await watched.next()).tripRequests).toEqual({ tipo: "nueva", viaje: { id: trip.id, pasajero: { id: passenger.id } } });
  });

  it("keeps each administrator's notifications their own", async () => {
    const [admin, otherAdmin] = [await newAdmin(app), await newAdmin(app)];
    const NOTIFICATIONS = `subscription { notifications { usuario_id titulo } }`;
    const [mine, theirs] = [await peer(admin.id), await peer(otherAdmin.id)];
    mine.subscribe("avisos", NOTIFICATIONS);
    theirs.subscribe("avisos", NOTIFICATIONS);
    await registered();

    announce(app.server.deps, await createNotification(app.db, admin.id, { tipo: "sistema", titulo: "Solo tuya", mensaje: "Hola" }));
    expect(data(await mine.next()).notifications).toEqual({ usuario_id: admin.id, titulo: "Solo tuya" });
    await expect(theirs.next(300)).rejects.toThrow(/no message/);
  });

  it("stops writing to a socket whose client completed, and goes on writing to the others", async () => {
    const { passenger, driver, trip } = await pendingTrip();
    const [leaving, staying] = [await peer(passenger.id), await peer(passenger.id)];
    leaving.subscribe("viaje", TRIP_UPDATED, { id: trip.id });
    staying.subscribe("viaje", TRIP_UPDATED, { id: trip.id });
    await registered();

    leaving.socket.send(JSON.stringify({ id: "viaje", type: "complete" }));
    await registered();
    await accept(trip.id, driver.id);
    expect(data(await staying.next()).tripUpdated.estado).toBe("aceptado");
    await app.graphql(`mutation ($id: Int!) { startRoute(trip_id: $id) { __typename } }`, { id: trip.id }, driver.id);
    expect(data(await staying.next()).tripUpdated.estado).toBe("en_ruta");
    expect(leaving.inbox).toEqual([]);
  });

  it("closes the shared subscription when its last listener leaves, and opens a new one for the next subscriber", async () => {
    const { passenger, driver, trip } = await pendingTrip();
    const [completing, closing] = [await peer(passenger.id), await peer(passenger.id)];
    completing.subscribe("viaje", TRIP_UPDATED, { id: trip.id });
    closing.subscribe("viaje", TRIP_UPDATED, { id: trip.id });
    await registered();

    completing.socket.send(JSON.stringify({ id: "viaje", type: "complete" }));
    closing.socket.close();
    await registered();
    const before = executions();
    await accept(trip.id, driver.id);
    await delay(300);
    // A shared subscription left open would still execute the event for nobody.
    expect(executions() - before).toBe(0);

    const next = await peer(passenger.id);
    next.subscribe("viaje", TRIP_UPDATED, { id: trip.id });
    await registered();
    await app.graphql(`mutation ($id: Int!) { startRoute(trip_id: $id) { __typename } }`, { id: trip.id }, driver.id);
    expect(data(await next.next()).tripUpdated.estado).toBe("en_ruta");
  });

  it("answers a refused or invalid subscription to its subscriber alone", async () => {
    const { passenger, driver, trip } = await pendingTrip();
    const stranger = await createPassenger(app);
    const watching = await peer(passenger.id);
    watching.subscribe("viaje", TRIP_UPDATED, { id: trip.id });
    await registered();
    // Two sockets of one stranger at once: the second must not wait on, nor join, the first's refusal.
    const refused = [await peer(stranger.id), await peer(stranger.id)];
    for (const socket of refused) socket.subscribe("viaje", TRIP_UPDATED, { id: trip.id });
    const invalid = await peer(passenger.id);
    invalid.subscribe("viaje", `subscription ($id: Int!) { tripUpdated(trip_id: $id) { no_existe } }`, { id: trip.id });

    for (const socket of refused) {
      const answer = JSON.parse(await socket.next());
      expect(answer).toMatchObject({
        id: "viaje",
        type: "next",
        payload: { errors: [{ message: expect.stringMatching(/Solo el pasajero, el conductor o un administrador/) }] },
      });
      expect(JSON.parse(await socket.next())).toEqual({ id: "viaje", type: "complete" });
    }
    expect(JSON.parse(await invalid.next())).toMatchObject({
      id: "viaje",
      type: "error",
      payload: [{ message: expect.stringContaining("no_existe") }],
    });

    await accept(trip.id, driver.id);
    expect(data(await watching.next()).tripUpdated.estado).toBe("aceptado");
    for (const socket of [...refused, invalid]) expect(socket.inbox).toEqual([]);
  });
});
