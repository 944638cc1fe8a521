import { readFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createClient } from "graphql-ws";
import WebSocket from "ws";
import { isUnavailable } from "../../src/db/client.js";
import { refreshPresence } from "../../src/domain/matching/online-drivers.js";
import { GRAPHQL_SSE_PATH } from "../../src/http/paths.js";
import { createLogger } from "../../src/logger.js";
import { createTestApp, type TestApp } from "../support/app.js";
import { createTestRedis } from "../support/redis.js";
import { PASSWORD } from "../support/fixtures.js";
import { logLines } from "../support/log.js";
import { createPgCluster, type PgCluster } from "../support/pg-cluster.js";
import { watchRejections } from "../support/rejections.js";
import { ESTADIO, LLERAS, createDriver, createPassenger, requestTrip } from "../support/trips.js";

/**
 * The service on a PostgreSQL server of the test's own, which the test stops, starts and crashes
 * under it: while the server is away every path answers 503 with Retry-After (or, on a
 * subscription, the retryable SERVICE_UNAVAILABLE), never 500; the log says so once; and when the
 * server is back the same process serves everything again by itself.
 */
const rejections = watchRejections();
let cluster: PgCluster;
let running = false;
let app: TestApp;
let base: string;
let port: number;
const { lines, sink } = logLines();

beforeAll(async () => {
  cluster = await createPgCluster();
  running = true;
  await cluster.sql("CREATE DATABASE servicio");
  app = await createTestApp({
    env: {
      DATABASE_URL: cluster.url("servicio"),
      DATABASE_POOL_SIZE: "4",
      DATABASE_POOL_TIMEOUT_MS: "2000",
      POSITION_FLUSH_MS: "100",
      // The load below logs in as fast as it is answered, from one address: no limit of logins may turn it away.
      LOGIN_MAX_PER_ADDRESS: "100000",
    },
    log: createLogger({ LOG_LEVEL: "info" }, sink),
  });
  ({ port } = await app.server.start(0, "127.0.0.1"));
  base = `http://127.0.0.1:${port}`;
});

// A test that failed midway leaves the server running for the next.
afterEach(async () => {
  if (!running) await start();
});

afterAll(async () => {
  try {
    if (cluster && !running) await cluster.start();
    await app?.close();
  } finally {
    await cluster?.destroy();
  }
});

const stop = async () => {
  await cluster.stop("immediate");
  running = false;
};
const start = async () => {
  await cluster.start();
  running = true;
};

interface Answer {
  status: number;
  retryAfter: string | null;
  body: any;
}

async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const init: RequestInit = { method, headers: { ...headers } };
  let url = `${base}${path}`;
  if (method === "GET" && body) url += `?${new URLSearchParams(body as Record<string, string>)}`;
  else if (body instanceof FormData) init.body = body;
  else if (body !== undefined) {
    init.body = JSON.stringify(body);
    init.headers = { "content-type": "application/json", ...headers };
  }
  const response = await fetch(url, init);
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {}
  return { status: response.status, retryAfter: response.headers.get("retry-after"), body: parsed };
}

const graphql = (query: string, variables: Record<string, unknown>, headers: Record<string, string>) =>
  call("POST", "/graphql", { query, variables }, headers);

const TRIP_UPDATED = `subscription ($id: Int!) { tripUpdated(trip_id: $id) { id estado } }`;
const TRIP_OFFERS = `subscription ($id: Int!) { tripUpdated(trip_id: $id) { id estado conductores_avisados } }`;

/** A GraphQL subscription over SSE, read until the stream ends: each event's name and data. */
async function sse(query: string, variables: Record<string, unknown>, headers: Record<string, string>, until = 1) {
  const response = await fetch(`${base}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "text/event-stream", ...headers },
    body: JSON.stringify({ query, variables }),
  });
  const events: Array<{ event?: string; data: any }> = [];
  const decoder = new TextDecoder();
  let buffer = "";
  const reader = response.body!.getReader();
  while (events.length < until) {
    const { done, value } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let end = buffer.indexOf("\n\n");
    while (end >= 0) {
      const block = buffer
        .slice(0, end)
        .split("\n")
        .filter((line) => line !== "" && !line.startsWith(":"));
      buffer = buffer.slice(end + 2);
      end = buffer.indexOf("\n\n");
      if (block.length === 0) continue;
      const field = (name: string) =>
        block
          .find((line) => line.startsWith(`${name}:`))
          ?.slice(name.length + 1)
          .trim();
      const data = field("data");
      events.push({ event: field("event"), data: data ? JSON.parse(data) : null });
    }
  }
  await reader.cancel();
  return { status: response.status, events };
}

/** A graphql-transport-ws connection by hand: every message the server wrote, and how the socket closed. */
async function socketOf(connectionParams: Record<string, unknown>) {
  const socket = new WebSocket(`ws://127.0.0.1:${port}/graphql`, "graphql-transport-ws");
  const inbox: Array<Record<string, any>> = [];
  let closed: number | null = null;
  socket.on("message", (data) => inbox.push(JSON.parse(String(data))));
  socket.on("close", (code) => {
    closed = code;
  });
  await new Promise((resolve, reject) => socket.once("open", resolve).once("error", reject));
  socket.send(JSON.stringify({ type: "connection_init", payload: connectionParams }));
  /** The next message, or how the socket closed; waits up to 10 s. */
  const next = async (): Promise<Record<string, any>> => {
    for (let waited = 0; inbox.length === 0 && closed === null && waited < 10_000; waited += 20) await delay(20);
    return inbox.shift() ?? { closed };
  };
  return {
    send: (message: Record<string, unknown>) => socket.send(JSON.stringify(message)),
    next,
    close: () => socket.terminate(),
  };
}

const photo = () => new Blob([readFileSync(join("test", "fixtures", "documento.jpg"))]);
function uploadForm(conductorId: number) {
  const form = new FormData();
  form.append("conductor_id", String(conductorId));
  form.append("tipo_documento", "soat");
  form.append("documento", photo(), "documento.jpg");
  return form;
}

const BUSY_LEGACY = { status: 503, retryAfter: "2", body: { success: false, message: expect.stringMatching(/intenta de nuevo/) } };
const BUSY_GRAPHQL = {
  status: 503,
  retryAfter: "2",
  body: { errors: [expect.objectContaining({ extensions: expect.objectContaining({ code: "SERVICE_UNAVAILABLE" }) })] },
};

const since = (mark: number) => lines.slice(mark);
const at = (mark: number, level: number) => since(mark).filter((line) => line.level === level);

describe("with its PostgreSQL server stopped", () => {
  it("answers every path 503 with Retry-After, or SERVICE_UNAVAILABLE on a subscription, never 500; " +
    "/readyz 503; one warning; and once the server is back the same process serves them all", async () => {
    const passenger = await createPassenger(app);
    const other = await createPassenger(app);
    const driver = await createDriver(app);
    const idle = await createDriver(app, { at: ESTADIO });
    const trip = await requestTrip(app, passenger.id);
    const bearer = await app.bearer(passenger.id);
    const driverBearer = await app.bearer(driver.id);
    const uploaded = (await call("POST", "/conductor/upload_documents.php", uploadForm(driver.id))).body.url as string;
    const plainPhoto = uploaded.split("?")[0]!;
    // A socket connected before, following the trip with a field read from the database on each
    // change, which subscribes again while the server is away.
    const connected = await socketOf(bearer);
    expect(await connected.next()).toEqual({ type: "connection_ack" });
    connected.send({ id: "antes", type: "subscribe", payload: { query: TRIP_OFFERS, variables: { id: trip.id } } });
    await delay(300);
    const row = await app.db.trip.findUniqueOrThrow({ where: { id: trip.id } });

    // Nobody remembered but the driver, whose phone pings once more: their pings need no database.
    app.server.deps.callers.clear();
    const heard = { conductor_id: driver.id, latitud: 6.2101, longitud: -75.5661 };
    expect((await call("POST", "/conductor/update_location.php", heard)).status).toBe(200);
    const mark = lines.length;
    await stop();
    expect(await call("POST", "/conductor/update_location.php", { ...heard, latitud: 6.2102 })).toMatchObject({ status: 200 });

    const legacy = {
      create: await call("POST", "/viajes/create_trip.php", {
        usuario_id: other.id,
        tipo_servicio: "auto",
        origen: LLERAS,
        destino: ESTADIO,
      }),
      accept: await call("POST", "/viajes/accept_trip.php", { trip_id: trip.id, conductor_id: driver.id }),
      pending: await call("GET", "/conductor/get_pending_requests.php", { conductor_id: String(driver.id) }),
      ping: await call("POST", "/conductor/update_location.php", { conductor_id: idle.id, latitud: 6.25, longitud: -75.59 }),
      login: await call("POST", "/auth/login.php", { email: passenger.email, password: PASSWORD }),
      upload: await call("POST", "/conductor/upload_documents.php", uploadForm(driver.id)),
    };
    expect(legacy).toEqual({
      create: BUSY_LEGACY,
      accept: BUSY_LEGACY,
      pending: BUSY_LEGACY,
      ping: BUSY_LEGACY,
      login: BUSY_LEGACY,
      upload: BUSY_LEGACY,
    });
    // A phone retrying its login through the outage, more times than an account may fail: none of
    // these attempts was judged, so none may lock the account once the database is back.
    for (let retry = 0; retry < 10; retry++) {
      expect(await call("POST", "/auth/login.php", { email: passenger.email, password: PASSWORD })).toEqual(BUSY_LEGACY);
    }
    const query = await graphql(`query ($id: Int!) { trip(trip_id: $id) { __typename } }`, { id: trip.id }, bearer);
    const mutation = await graphql(
      `mutation ($id: Int!) { cancelTrip(trip_id: $id, motivo: "Ya no") { __typename } }`,
      { id: trip.id },
      bearer,
    );
    expect({ query, mutation }).toEqual({ query: BUSY_GRAPHQL, mutation: BUSY_GRAPHQL });
    expect(await call("GET", plainPhoto, undefined, driverBearer)).toEqual(BUSY_LEGACY);

    const stream = await sse(TRIP_UPDATED, { id: trip.id }, bearer);
    // graphql-sse's own path answers before any stream opens.
    const single = await fetch(`${base}${GRAPHQL_SSE_PATH}`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "text/event-stream", ...bearer },
      body: JSON.stringify({ query: TRIP_UPDATED, variables: { id: trip.id } }),
    });
    expect({ status: single.status, retryAfter: single.headers.get("retry-after"), body: await single.json() }).toEqual(BUSY_GRAPHQL);
    expect(stream.events[0]).toEqual({
      event: "next",
      data: { errors: [expect.objectContaining({ extensions: { code: "SERVICE_UNAVAILABLE" } })] },
    });
    connected.send({ id: "viaje", type: "subscribe", payload: { query: TRIP_UPDATED, variables: { id: trip.id } } });
    expect(await connected.next()).toMatchObject({ id: "viaje", payload: { errors: [{ extensions: { code: "SERVICE_UNAVAILABLE" } }] } });
    expect(await connected.next()).toEqual({ id: "viaje", type: "complete" });
    // A change announced meanwhile (by another process, say) reaches the running subscription as that error.
    app.server.deps.events.publish("viaje", trip.id, row);
    expect(await connected.next()).toMatchObject({ id: "antes", payload: { errors: [{ extensions: { code: "SERVICE_UNAVAILABLE" } }] } });
    // A connection whose token cannot be checked now is closed with "try again later", which clients retry.
    const refused = await socketOf(bearer);
    expect(await refused.next()).toEqual({ closed: 1013 });
    let reconnected = false;
    const retrying = createClient({
      url: `ws://127.0.0.1:${port}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: bearer,
      retryAttempts: 100,
      retryWait: () => delay(200),
      on: { connected: () => (reconnected = true) },
    });
    const retried = retrying.iterate({ query: TRIP_UPDATED, variables: { id: trip.id } });
    const retriedFirst = retried.next();

    const ready = await call("GET", "/readyz");
    expect(ready).toMatchObject({ status: 503, body: { status: "unavailable", reason: "database: unreachable" } });
    expect((await call("GET", "/healthz")).status).toBe(200);
    // What only the database knows is unknown for now.
    const scrape = await call("GET", "/metrics");
    expect([scrape.status, /^trips_pending (\S+)$/m.exec(scrape.body)?.[1]]).toEqual([200, "Nan"]);

    // The position heard meanwhile waits for the database; its flushes fail quietly.
    await delay(500);
    expect(at(mark, 50)).toEqual([]);
    const warnings = at(mark, 40);
    expect(warnings).toEqual([
      expect.objectContaining({ msg: "database unavailable: requests are answered 503 and background work waits" }),
    ]);

    await start();
    await expect
      .poll(() => since(mark).find((line) => line.msg === "database available again"), { timeout: 15_000 })
      .toMatchObject({
        level: 30,
        failed: expect.objectContaining({
          requests: expect.any(Number),
          "position flushes": expect.any(Number),
          "readiness checks": 1,
          "metrics readings": 2,
        }),
      });
    expect(at(mark, 50)).toEqual([]);
    expect(at(mark, 40)).toHaveLength(1);

    // The same process, by itself.
    expect((await call("GET", "/readyz")).status).toBe(200);
    const again = {
      create: await call("POST", "/viajes/create_trip.php", {
        usuario_id: other.id,
        tipo_servicio: "auto",
        origen: LLERAS,
        destino: ESTADIO,
      }),
      pending: await call("GET", "/conductor/get_pending_requests.php", { conductor_id: String(driver.id) }),
      ping: await call("POST", "/conductor/update_location.php", { conductor_id: idle.id, latitud: 6.25, longitud: -75.59 }),
      login: await call("POST", "/auth/login.php", { email: passenger.email, password: PASSWORD }),
      upload: await call("POST", "/conductor/upload_documents.php", uploadForm(driver.id)),
      photo: await call("GET", plainPhoto, undefined, driverBearer),
      query: await graphql(`query ($id: Int!) { trip(trip_id: $id) { __typename } }`, { id: trip.id }, bearer),
    };
    expect(Object.fromEntries(Object.entries(again).map(([name, answer]) => [name, answer.status]))).toEqual({
      create: 200,
      pending: 200,
      ping: 200,
      login: 200,
      upload: 200,
      photo: 200,
      query: 200,
    });
    expect(again.query.body).toEqual({ data: { trip: { __typename: "Viaje" } } });

    // Subscriptions open again, on both transports; the client that kept retrying is connected,
    // and the subscription that ran throughout goes on.
    const reopened = await socketOf(bearer);
    expect(await reopened.next()).toEqual({ type: "connection_ack" });
    reopened.send({ id: "viaje", type: "subscribe", payload: { query: TRIP_UPDATED, variables: { id: trip.id } } });
    await expect.poll(() => reconnected, { timeout: 5000 }).toBe(true);
    await delay(300);
    const accepted = await call("POST", "/viajes/accept_trip.php", { trip_id: trip.id, conductor_id: driver.id });
    expect(accepted.status).toBe(200);
    const aceptado = { tripUpdated: { id: trip.id, estado: "aceptado" } };
    expect(await reopened.next()).toEqual({ id: "viaje", type: "next", payload: { data: aceptado } });
    expect((await retriedFirst).value).toEqual({ data: aceptado });
    expect(await connected.next()).toMatchObject({ id: "antes", type: "next", payload: { data: aceptado } });
    await retrying.dispose();
    const streamed = sse(TRIP_UPDATED, { id: trip.id }, bearer);
    await delay(300);
    expect((await call("POST", "/viajes/cancel_trip.php", { trip_id: trip.id, motivo: "Ya no" })).status).toBe(200);
    expect((await streamed).events[0]).toEqual({ event: "next", data: { data: { tripUpdated: { id: trip.id, estado: "cancelado" } } } });
    for (const socket of [connected, reopened]) socket.close();

    // The position heard while the server was away is stored.
    await expect
      .poll(async () => (await app.db.driverStatus.findUniqueOrThrow({ where: { conductor_id: driver.id } })).latitud, { timeout: 5000 })
      .toBe(6.2102);
    expect(rejections).toEqual([]);
  }, 90_000);
});

describe("with its PostgreSQL server crashing and restarting under load", () => {
  it("answers the calls in flight 200 or 503, never 500, logs no error, and then serves them all", async () => {
    const driver = await createDriver(app);
    const passenger = await createPassenger(app);
    const trip = await requestTrip(app, passenger.id);
    const bearer = await app.bearer(passenger.id);
    // Each trip request from a passenger of its own, so that every one of them should succeed.
    const passengers: Array<{ id: number }> = [];
    for (let i = 0; i < 60; i++) passengers.push(await createPassenger(app));
    const calls = [
      () => call("GET", "/viajes/get_trip.php", { trip_id: String(trip.id) }),
      () => call("GET", "/conductor/get_pending_requests.php", { conductor_id: String(driver.id) }),
      () => call("POST", "/conductor/update_location.php", { conductor_id: driver.id, latitud: 6.2086, longitud: -75.5659 }),
      () => call("POST", "/auth/login.php", { email: passenger.email, password: PASSWORD }),
      () => graphql(`query ($id: Int!) { trip(trip_id: $id) { __typename } }`, { id: trip.id }, bearer),
      () => {
        const next = passengers.pop();
        return next
          ? call("POST", "/viajes/create_trip.php", { usuario_id: next.id, tipo_servicio: "auto", origen: LLERAS, destino: ESTADIO })
          : call("GET", "/viajes/get_trip.php", { trip_id: String(trip.id) });
      },
    ];
    const mark = lines.length;
    const answers: Answer[] = [];
    let restarting = true;
    const load = calls.map(async (work) => {
      while (restarting) answers.push(await work());
    });
    // Twice: a connection a crash leaves lent out would be missed for good.
    for (let round = 0; round < 2; round++) {
      await delay(400);
      running = false;
      await cluster.restart("immediate");
      running = true;
    }
    await delay(400);
    restarting = false;
    await Promise.all(load);

    const census: Record<number, number> = {};
    for (const answer of answers) census[answer.status] = (census[answer.status] ?? 0) + 1;
    expect(
      Object.keys(census)
        .map(Number)
        .filter((status) => status !== 200 && status !== 503),
    ).toEqual([]);
    for (const answer of answers.filter((a) => a.status === 503)) expect(answer.retryAfter).toBe("2");
    expect(at(mark, 50)).toEqual([]);

    await expect.poll(async () => (await call("GET", "/readyz")).status, { timeout: 15_000 }).toBe(200);
    // More at once than the pool has connections (4): all of them are there.
    const after = await Promise.all([...calls, ...calls].map((work) => work()));
    expect(after.map((answer) => answer.status)).toEqual(after.map(() => 200));
    // No connection is left lent out: the pool is whole for whatever comes next.
    const inUse = async () => Number(/^db_pool_in_use (\S+)$/m.exec((await call("GET", "/metrics")).body)?.[1]);
    await expect.poll(inUse, { timeout: 5000 }).toBe(0);
  }, 90_000);
});

describe("who is online, when the database fails to say", () => {
  it("forgets a driver whose presence could not be read again after a change, until their next ping decides", async () => {
    const driver = await createDriver(app);
    const { presence } = app.server.deps.matching;
    expect(presence.get(driver.id)?.disponible).toBe(true);
    await stop();
    // As after a change that committed just before the server went away.
    await expect(refreshPresence(app.server.deps, driver.id)).rejects.toSatisfy(isUnavailable);
    expect(presence.get(driver.id)).toBeUndefined();
    await start();
    const ping = () => call("POST", "/conductor/update_location.php", { conductor_id: driver.id, latitud: 6.2087, longitud: -75.566 });
    await expect.poll(async () => (await ping()).status, { timeout: 10_000 }).toBe(200);
    expect(presence.get(driver.id)?.disponible).toBe(true);
  });
});

describe("with Redis back while its PostgreSQL server is away", () => {
  it("reads who is online again once the database is back", async () => {
    const redis = await createTestRedis();
    await redis.start();
    await cluster.sql("CREATE DATABASE con_redis");
    const own = await createTestApp({ env: { DATABASE_URL: cluster.url("con_redis"), REDIS_URL: redis.url } });
    try {
      const driver = await createDriver(own);
      const passenger = await createPassenger(own);
      const online = () => [...own.server.deps.matching.presence.all()].some((presence) => presence.conductor_id === driver.id);
      expect(online()).toBe(true);

      await redis.stop();
      await stop();
      // What other processes announced while Redis was away never arrived: who is online is read again, once the database answers.
      await redis.start();
      await expect.poll(online, { timeout: 15_000 }).toBe(false);
      await start();
      await expect.poll(online, { timeout: 15_000 }).toBe(true);
      expect(
        (
          await own.legacy("POST", "/viajes/create_trip.php", {
            usuario_id: passenger.id,
            tipo_servicio: "auto",
            origen: LLERAS,
            destino: ESTADIO,
          })
        ).status,
      ).toBe(200);
    } finally {
      await own.close();
      await redis.stop();
    }
  }, 60_000);
});
