import { setTimeout as delay } from "node:timers/promises";
import type { Client } from "graphql-ws";
import { createClient as createSSEClient, type Client as SSEClient } from "graphql-sse";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import WebSocket from "ws";
import { GRAPHQL_SSE_PATH } from "../../src/http/paths.js";
import { createTestApp, SIGN_IN_REQUIRED, type TestApp } from "../support/app.js";
import { post } from "../support/fixtures.js";
import { connect, subscribe } from "../support/ws.js";
import { createDriver, createPassenger, northOf, requestTrip } from "../support/trips.js";

let app: TestApp;
let port: number;
let base: string;
const clients: Client[] = [];
const sseClients: SSEClient[] = [];
const sockets: WebSocket[] = [];
/** Listeners on each topic of the in-process pubsub (an EventTarget): what a subscription has left open. */
const listeners = new Map<string, number>();
const listening = (topic: string) => listeners.get(topic) ?? 0;
beforeAll(async () => {
  const { addEventListener, removeEventListener } = EventTarget.prototype;
  const count = (type: string, by: number) => {
    if (/^(viaje|ubicacion_viaje):/.test(type)) listeners.set(type, listening(type) + by);
  };
  vi.spyOn(EventTarget.prototype, "addEventListener").mockImplementation(function (this: EventTarget, ...args) {
    count(args[0], 1);
    return addEventListener.apply(this, args);
  });
  vi.spyOn(EventTarget.prototype, "removeEventListener").mockImplementation(function (this: EventTarget, ...args) {
    count(args[0], -1);
    return removeEventListener.apply(this, args);
  });
  app = await createTestApp();
  ({ port } = await app.server.start(0, "127.0.0.1"));
  base = `http://127.0.0.1:${port}`;
});
afterAll(async () => {
  for (const socket of sockets) socket.terminate();
  for (const client of sseClients) client.dispose();
  await Promise.all(clients.map((c) => c.dispose()));
  await app.close();
  vi.restoreAllMocks();
});

const as = async (userId?: number) => {
  const client = await connect(port, userId === undefined ? {} : await app.bearer(userId));
  clients.push(client);
  return client;
};

const TRIP_UPDATED = `subscription ($id: Int!) { tripUpdated(trip_id: $id) { id estado conductor_id } }`;
const DRIVER_LOCATION = `subscription ($id: Int!) { driverLocation(trip_id: $id) { conductor_id latitud longitud } }`;
const TRIP_REQUESTS = `subscription ($id: Int!) { tripRequests(conductorId: $id) { tipo viaje { id estado } } }`;

const accept = async (tripId: number, driverId: number) =>
  expect((await post(app, "/viajes/accept_trip.php", { trip_id: tripId, conductor_id: driverId })).status).toBe(200);
const cancel = async (tripId: number) =>
  expect((await post(app, "/viajes/cancel_trip.php", { trip_id: tripId, motivo: "Ya no" })).status).toBe(200);

/** A graphql-transport-ws client by hand: every message as the server wrote it, and how the socket closed. */
interface Peer {
  socket: WebSocket;
  inbox: Array<Record<string, any>>;
  closed: number | null;
  send(message: Record<string, unknown>): void;
  /** The next message; rejects after `timeoutMs` without one. */
  next(timeoutMs?: number): Promise<Record<string, any>>;
}

async function peer(userId?: number): Promise<Peer> {
  const socket = new WebSocket(`ws://127.0.0.1:${port}/graphql`, "graphql-transport-ws");
  sockets.push(socket);
  let waiting: (() => void) | null = null;
  const self: Peer = {
    socket,
    inbox: [],
    closed: null,
    send: (message) => socket.send(JSON.stringify(message)),
    async next(timeoutMs = 5000) {
      if (self.inbox.length === 0) {
        await new Promise<void>((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error(`no message within the time limit (closed: ${self.closed})`)), timeoutMs);
          waiting = () => {
            clearTimeout(timer);
            waiting = null;
            resolve();
          };
        });
      }
      return self.inbox.shift()!;
    },
  };
  socket.on("message", (data) => {
    self.inbox.push(JSON.parse(String(data)));
    waiting?.();
  });
  socket.on("close", (code) => (self.closed = code));
  await new Promise((resolve, reject) => socket.once("open", resolve).once("error", reject));
  self.send({ type: "connection_init", payload: userId === undefined ? {} : await app.bearer(userId) });
  expect(await self.next()).toEqual({ type: "connection_ack" });
  return self;
}

/** graphql-ws does not acknowledge a subscription: give the server a moment to register it. */
const registered = () => delay(300);

/** The events of a finished `text/event-stream` body, comments (pings) left out. */
function events(body: string) {
  return body
    .split("\n\n")
    .map((block) => block.split("\n").filter((line) => line !== "" && !line.startsWith(":")))
    .filter((lines) => lines.length > 0)
    .map((lines) => {
      const field = (name: string) =>
        lines
          .find((line) => line.startsWith(`${name}:`))
          ?.slice(name.length + 1)
          .trim();
      const data = field("data");
      return { event: field("event"), data: data ? JSON.parse(data) : null };
    });
}

describe("graphql-ws", () => {
  it("answers a syntax error with an error for that operation alone, and the connection's other subscriptions go on", async () => {
    const passenger = await createPassenger(app);
    const driver = await createDriver(app);
    const trip = await requestTrip(app, passenger.id);
    const socket = await peer(passenger.id);
    socket.send({ id: "viaje", type: "subscribe", payload: { query: TRIP_UPDATED, variables: { id: trip.id } } });
    socket.send({ id: "roto", type: "subscribe", payload: { query: `subscription { tripUpdated(trip_id: ${trip.id}) { id ` } });

    expect(await socket.next()).toMatchObject({ id: "roto", type: "error", payload: [{ message: expect.stringMatching(/Syntax Error/) }] });
    await registered();
    await accept(trip.id, driver.id);
    expect(await socket.next()).toEqual({
      id: "viaje",
      type: "next",
      payload: { data: { tripUpdated: { id: trip.id, estado: "aceptado", conductor_id: driver.id } } },
    });
    expect(socket.closed).toBeNull();
  });
});

describe("GraphQL over SSE", () => {
  const sse = async (query: string, variables: Record<string, unknown>, headers: Record<string, string> = {}) => {
    const response = await fetch(`${base}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "text/event-stream", ...headers },
      body: JSON.stringify({ query, variables }),
    });
    return { status: response.status, type: response.headers.get("content-type"), events: events(await response.text()) };
  };

  it("answers a refused subscription with 200 and its errors in a next event, then complete; JSON keeps its status", async () => {
    const passenger = await createPassenger(app);
    await createDriver(app);
    const trip = await requestTrip(app, passenger.id);
    const stranger = await createPassenger(app);

    const anonymous = await sse(TRIP_UPDATED, { id: trip.id });
    expect(anonymous).toMatchObject({ status: 200, type: expect.stringMatching(/^text\/event-stream/) });
    expect(anonymous.events).toEqual([
      { event: "next", data: { errors: [expect.objectContaining(SIGN_IN_REQUIRED.errors[0])] } },
      { event: "complete", data: null },
    ]);

    const forbidden = await sse(TRIP_UPDATED, { id: trip.id }, await app.bearer(stranger.id));
    expect(forbidden).toMatchObject({ status: 200, type: expect.stringMatching(/^text\/event-stream/) });
    expect(forbidden.events).toEqual([
      {
        event: "next",
        data: {
          errors: [
            expect.objectContaining({
              message: expect.stringMatching(/Solo el pasajero, el conductor o un administrador/),
              extensions: { code: "FORBIDDEN" },
            }),
          ],
        },
      },
      { event: "complete", data: null },
    ]);

    // The same refusal as JSON is still a 401.
    expect(await app.graphql(`query ($id: Int!) { trip(trip_id: $id) { __typename } }`, { id: trip.id })).toMatchObject(SIGN_IN_REQUIRED);
  });

  it.each([
    { mode: "distinct connections on /graphql", url: "/graphql", singleConnection: false },
    { mode: `a single connection on ${GRAPHQL_SSE_PATH}`, url: GRAPHQL_SSE_PATH, singleConnection: true },
  ])("streams a trip's changes to the graphql-sse client in $mode, with a Bearer token", async ({ url, singleConnection }) => {
    const passenger = await createPassenger(app);
    const driver = await createDriver(app);
    const trip = await requestTrip(app, passenger.id);
    const client = createSSEClient({ url: `${base}${url}`, singleConnection, headers: await app.bearer(passenger.id), retryAttempts: 0 });
    sseClients.push(client);
    const updates = client.iterate<{ tripUpdated: { id: number; estado: string; conductor_id: number | null } }>({
      query: TRIP_UPDATED,
      variables: { id: trip.id },
    });
    const first = updates.next();
    await registered();

    await accept(trip.id, driver.id);
    expect((await first).value).toEqual({ data: { tripUpdated: { id: trip.id, estado: "aceptado", conductor_id: driver.id } } });
    await cancel(trip.id);
    expect((await updates.next()).value).toEqual({ data: { tripUpdated: { id: trip.id, estado: "cancelado", conductor_id: driver.id } } });
    expect(await updates.next()).toEqual({ done: true, value: undefined });
  });

  it.each([false, true])(
    `answers a refused or broken operation on ${GRAPHQL_SSE_PATH} as its errors (singleConnection: %s)`,
    async (singleConnection) => {
      const trip = await requestTrip(app, (await createPassenger(app)).id);
      const client = createSSEClient({ url: `${base}${GRAPHQL_SSE_PATH}`, singleConnection, retryAttempts: 0 });
      sseClients.push(client);
      const answers = async (query: string) => {
        const results = [];
        for await (const result of client.iterate({ query, variables: { id: trip.id } })) results.push(result);
        return results;
      };

      expect(await answers(TRIP_UPDATED)).toEqual([{ errors: [expect.objectContaining(SIGN_IN_REQUIRED.errors[0])] }]);
      expect(await answers(`subscription ($id: Int!) { tripUpdated(trip_id: $id) { id `)).toEqual([
        {
          errors: [
            expect.objectContaining({ message: expect.stringMatching(/Syntax Error/), extensions: { code: "GRAPHQL_PARSE_FAILED" } }),
          ],
        },
      ]);
    },
  );
});

describe("a subscription to a trip", () => {
  it("tripUpdated sends the final trip and completes, for every socket sharing it", async () => {
    const passenger = await createPassenger(app);
    const driver = await createDriver(app);
    const trip = await requestTrip(app, passenger.id);
    const updates = await subscribe(await as(passenger.id), TRIP_UPDATED, { id: trip.id });
    // Two sockets of the passenger share one subscription (fan-out.ts); both must hear the end.
    const sharing = [await peer(passenger.id), await peer(passenger.id)];
    for (const socket of sharing)
      socket.send({ id: "viaje", type: "subscribe", payload: { query: TRIP_UPDATED, variables: { id: trip.id } } });
    await registered();

    await accept(trip.id, driver.id);
    expect((await updates.next()).tripUpdated.estado).toBe("aceptado");
    await cancel(trip.id);
    expect((await updates.next()).tripUpdated.estado).toBe("cancelado");
    await expect(updates.next()).rejects.toThrow("subscription ended");

    for (const socket of sharing) {
      expect((await socket.next()).payload.data.tripUpdated.estado).toBe("aceptado");
      expect((await socket.next()).payload.data.tripUpdated.estado).toBe("cancelado");
      expect(await socket.next()).toEqual({ id: "viaje", type: "complete" });
    }
    // Nothing listens to the trip any more.
    await vi.waitFor(() => expect(listening(`viaje:${trip.id}`)).toBe(0));
  });

  it("tripUpdated answers a trip already final once, then completes", async () => {
    const passenger = await createPassenger(app);
    await createDriver(app);
    const trip = await requestTrip(app, passenger.id);
    await cancel(trip.id);
    const updates = await subscribe(await as(passenger.id), TRIP_UPDATED, { id: trip.id });
    expect((await updates.next()).tripUpdated).toEqual({ id: trip.id, estado: "cancelado", conductor_id: null });
    await expect(updates.next()).rejects.toThrow("subscription ended");
  });

  it("driverLocation completes when the trip is completed, and at once for a trip already final", async () => {
    const passenger = await createPassenger(app);
    const driver = await createDriver(app);
    const trip = await requestTrip(app, passenger.id);
    await accept(trip.id, driver.id);
    const positions = await subscribe(await as(passenger.id), DRIVER_LOCATION, { id: trip.id });

    await post(app, "/conductor/update_location.php", { conductor_id: driver.id, latitud: 6.215, longitud: -75.567 });
    expect((await positions.next()).driverLocation).toEqual({ conductor_id: driver.id, latitud: 6.215, longitud: -75.567 });
    expect((await post(app, "/viajes/start_trip.php", { trip_id: trip.id })).status).toBe(200);
    expect((await post(app, "/viajes/complete_trip.php", { trip_id: trip.id, precio_final: 9000 })).status).toBe(200);
    await expect(positions.next()).rejects.toThrow("subscription ended");
    await vi.waitFor(() => expect([listening(`viaje:${trip.id}`), listening(`ubicacion_viaje:${trip.id}`)]).toEqual([0, 0]));

    const late = await subscribe(await as(passenger.id), DRIVER_LOCATION, { id: trip.id });
    await expect(late.next()).rejects.toThrow("subscription ended");
    await vi.waitFor(() => expect([listening(`viaje:${trip.id}`), listening(`ubicacion_viaje:${trip.id}`)]).toEqual([0, 0]));
  });

  it("stops listening when the subscriber leaves first", async () => {
    const passenger = await createPassenger(app);
    const driver = await createDriver(app);
    const trip = await requestTrip(app, passenger.id);
    await accept(trip.id, driver.id);
    const client = await as(passenger.id);
    const updates = await subscribe(client, TRIP_UPDATED, { id: trip.id });
    const positions = await subscribe(client, DRIVER_LOCATION, { id: trip.id });
    expect([listening(`viaje:${trip.id}`), listening(`ubicacion_viaje:${trip.id}`)]).toEqual([2, 1]);

    await updates.close();
    await positions.close();
    await vi.waitFor(() => expect([listening(`viaje:${trip.id}`), listening(`ubicacion_viaje:${trip.id}`)]).toEqual([0, 0]));
  });
});

describe("tripRequests", () => {
  it("withdraws a taken request from the other drivers offered it, not from the driver who took it", async () => {
    const MANIZALES = { direccion: "Catedral de Manizales", latitud: 5.0687, longitud: -75.5174 };
    const taker = await createDriver(app, { at: northOf(MANIZALES, 1) });
    const other = await createDriver(app, { at: northOf(MANIZALES, 2) });
    const takerEvents = await subscribe(await as(taker.id), TRIP_REQUESTS, { id: taker.id });
    const otherEvents = await subscribe(await as(other.id), TRIP_REQUESTS, { id: other.id });

    const trip = await requestTrip(app, (await createPassenger(app)).id, {
      origen: MANIZALES,
      destino: { ...MANIZALES, direccion: "Chipre", latitud: 5.0746 },
    });
    const offered = { tipo: "nueva", viaje: { id: trip.id, estado: "pendiente" } };
    expect((await takerEvents.next()).tripRequests).toEqual(offered);
    expect((await otherEvents.next()).tripRequests).toEqual(offered);

    await accept(trip.id, taker.id);
    expect((await otherEvents.next()).tripRequests).toEqual({ tipo: "retirada", viaje: { id: trip.id, estado: "aceptado" } });
    // Published in the same turn as the other driver's: it would be here already.
    await expect(takerEvents.next(300)).rejects.toThrow(/no event/);
  });
});
