import { randomUUID } from "node:crypto";
import { setTimeout as delay } from "node:timers/promises";
import type { Client } from "graphql-ws";
import { afterEach, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.js";
import { latestCode, PASSWORD, registerUser } from "../support/fixtures.js";
import { startService, type ServiceProcess } from "../support/process.js";
import { createTestRedis, type TestRedis } from "../support/redis.js";
import { watchRejections } from "../support/rejections.js";
import { createDriver, createPassenger, ESTADIO, LLERAS } from "../support/trips.js";
import { connect, subscribe } from "../support/ws.js";

/** Redis stops and starts again under running processes: they keep serving, and catch up when it is back. */
const rejections = watchRejections();
const cleanups: Array<() => Promise<unknown>> = [];

afterEach(async () => {
  // Last opened, first closed: sockets, then processes and apps, then their Redis.
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const NOTIFICATIONS = `subscription { notifications { tipo usuario_id } }`;
const VERIFY = `mutation ($e: String!, $c: String!) { verifyEmail(email: $e, codigo: $c) { __typename } }`;
/** Far enough from Parque Lleras that a trip from here goes to the driver waiting here alone. */
const BELLO = { direccion: "Parque de Bello", latitud: 6.3373, longitud: -75.5579 };

async function redisOfItsOwn(): Promise<TestRedis> {
  const redis = await createTestRedis();
  cleanups.push(() => redis.stop());
  return redis;
}

async function appOn(redis: TestRedis, prefix: string): Promise<TestApp> {
  const app = await createTestApp({ env: { REDIS_URL: redis.url, REDIS_CHANNEL_PREFIX: prefix } });
  cleanups.push(() => app.close());
  return app;
}

/** Redis of the test's own, this process's app listening on `port`, and a second process (the service's own entry point) on the same database and Redis. */
async function twoProcesses() {
  const redis = await redisOfItsOwn();
  await redis.start();
  const prefix = `test-${randomUUID()}:`;
  const a = await appOn(redis, prefix);
  const { port } = await a.server.start(0, "127.0.0.1");
  const b: ServiceProcess = await startService({
    DATABASE_URL: a.config.DATABASE_URL,
    UPLOAD_DIR: a.config.UPLOAD_DIR,
    REDIS_URL: redis.url,
    REDIS_CHANNEL_PREFIX: prefix,
  });
  cleanups.push(() => b.stop());
  return { redis, a, port, b };
}

async function clientOf(port: number, headers: Record<string, string>): Promise<Client> {
  const client = await connect(port, headers);
  cleanups.push(() => client.dispose() as Promise<void>);
  return client;
}

const readiness = async (app: TestApp) => {
  const response = await app.server.fetch(new Request("http://test/readyz"));
  return { status: response.status, body: await response.json() };
};

async function call(port: number, path: string, body: Record<string, unknown>) {
  const response = await fetch(`http://127.0.0.1:${port}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

/** Waits (up to 15 s) for `check` to hold: Redis clients reconnect with a back-off of up to 2 s. */
async function eventually(check: () => Promise<boolean> | boolean): Promise<void> {
  for (let waited = 0; !(await check()) && waited < 15_000; waited += 100) await delay(100);
}

describe("with Redis away", () => {
  it(
    "a process starts and serves, answers /readyz 503 with the reason, " + "and once Redis runs is ready and re-reads who is online",
    async () => {
      const redis = await redisOfItsOwn();
      const app = await appOn(redis, `test-${randomUUID()}:`);

      const user = await registerUser(app);
      expect((await app.legacy("POST", "/auth/check_user.php", { email: user.email })).body).toMatchObject({ success: true, exists: true });
      const mine = await app.graphql(`{ notifications { __typename } }`, {}, user.id);
      expect(mine).toMatchObject({ status: 200, data: { notifications: { __typename: "QueryNotificationsSuccess" } } });
      const health = await app.server.fetch(new Request("http://test/healthz"));
      expect(health.status).toBe(200);
      expect(await readiness(app)).toEqual({
        status: 503,
        body: { status: "unavailable", reason: expect.stringMatching(/^redis: not connected \(.+\)$/) },
      });

      // Meanwhile another process takes one driver offline and brings another online: this one never hears of it.
      const leaving = await createDriver(app);
      const arriving = await createDriver(app, { online: false });
      const { presence } = app.server.deps.matching;
      expect(presence.get(leaving.id)).toBeDefined();
      expect(presence.get(arriving.id)).toBeUndefined();
      await app.db.driverStatus.update({ where: { conductor_id: leaving.id }, data: { disponible: false } });
      await app.db.driverStatus.upsert({
        where: { conductor_id: arriving.id },
        create: {
          conductor_id: arriving.id,
          disponible: true,
          latitud: LLERAS.latitud,
          longitud: LLERAS.longitud,
          posicion_en: new Date(),
        },
        update: { disponible: true, latitud: LLERAS.latitud, longitud: LLERAS.longitud, posicion_en: new Date() },
      });
      const callerChanges = app.server.deps.callers.changes;

      await redis.start();
      await eventually(async () => (await readiness(app)).status === 200);
      expect(await readiness(app)).toEqual({ status: 200, body: { status: "ready" } });
      await eventually(() => presence.get(arriving.id) !== undefined);
      expect(presence.get(arriving.id)).toMatchObject({ disponible: true });
      expect(presence.get(leaving.id)).toBeUndefined();
      expect(app.server.deps.callers.changes).toBeGreaterThan(callerChanges);
      expect(rejections).toEqual([]);
    },
  );

  it("while it is away, a trip followed on one process and a request offered to a driver listening there arrive from the database", async () => {
    const { redis, a, port, b } = await twoProcesses();
    const driver = await createDriver(a, { online: false, at: BELLO });
    const passenger = await createPassenger(a);
    const offers = await subscribe(
      await clientOf(port, await a.bearer(driver.id)),
      `subscription ($id: Int!) { tripRequests(conductorId: $id) { tipo viaje { id } } }`,
      { id: driver.id },
    );

    await redis.stop();
    // Process b alone hears the driver go online, so it alone can offer them the request it creates.
    expect((await call(b.port, "/conductor/update_location.php", { conductor_id: driver.id, ...BELLO, disponibilidad: 1 })).status).toBe(
      200,
    );
    const created = await call(b.port, "/viajes/create_trip.php", {
      usuario_id: passenger.id,
      tipo_servicio: "auto",
      origen: BELLO,
      destino: ESTADIO,
    });
    expect(created).toMatchObject({ status: 200, body: { success: true } });
    const tripId: number = created.body.trip.id;
    expect(await offers.next(5000)).toEqual({ tripRequests: { tipo: "nueva", viaje: { id: tripId } } });

    const updates = await subscribe(
      await clientOf(port, await a.bearer(passenger.id)),
      `subscription ($id: Int!) { tripUpdated(trip_id: $id) { id estado } }`,
      { id: tripId },
    );
    // A catch-up pass or more with the trip followed and unchanged: it sends nothing.
    await delay(1500);
    expect((await call(b.port, "/viajes/accept_trip.php", { trip_id: tripId, conductor_id: driver.id })).status).toBe(200);
    expect(await updates.next(5000)).toEqual({ tripUpdated: { id: tripId, estado: "aceptado" } });
    // Read again every second, but told once.
    await expect(updates.next(2500)).rejects.toThrow("no event within the time limit");
    await expect(offers.next(100)).rejects.toThrow("no event within the time limit");
    expect(rejections).toEqual([]);
  });

  it(
    "mid-run, two processes answer locations, trips, subscriptions and logins, " + "survive, and hear each other again once it is back",
    async () => {
      const { redis, a, port, b } = await twoProcesses();

      // Subscribed before the outage, each on one process, to notifications the other will cause.
      const onA = await registerUser(a);
      const onB = await registerUser(a);
      const heardOnA = await subscribe(await clientOf(port, await a.bearer(onA.id)), NOTIFICATIONS);
      const heardOnB = await subscribe(await clientOf(b.port, await a.bearer(onB.id)), NOTIFICATIONS);
      const driver = await createDriver(a);
      const farDriver = await createDriver(a, { online: false, at: BELLO });
      const passenger = await createPassenger(a);
      const otherPassenger = await createPassenger(a);
      const locked = await registerUser(a);

      await redis.stop();

      // Pings publish positions and decisions; trips publish offers: all lost for the other process.
      expect(
        (await a.legacy("POST", "/conductor/update_location.php", { conductor_id: driver.id, latitud: 6.2087, longitud: -75.566 })).status,
      ).toBe(200);
      expect(
        (await call(b.port, "/conductor/update_location.php", { conductor_id: farDriver.id, ...BELLO, disponibilidad: 1 })).status,
      ).toBe(200);
      const trip = await a.legacy("POST", "/viajes/create_trip.php", {
        usuario_id: passenger.id,
        tipo_servicio: "auto",
        origen: LLERAS,
        destino: ESTADIO,
      });
      expect(trip).toMatchObject({ status: 200, body: { success: true } });
      const farTrip = await call(b.port, "/viajes/create_trip.php", {
        usuario_id: otherPassenger.id,
        tipo_servicio: "auto",
        origen: BELLO,
        destino: ESTADIO,
      });
      // On failure, what the other process logged says why.
      expect(
        farTrip,
        b
          .output()
          .split("\n")
          .filter((line) => /"level":(40|50)/.test(line))
          .slice(-5)
          .join("\n"),
      ).toMatchObject({
        status: 200,
        body: { success: true },
      });

      // New subscriptions work, and hear what happens on their own process.
      const updates = await subscribe(
        await clientOf(port, await a.bearer(passenger.id)),
        `subscription ($id: Int!) { tripUpdated(trip_id: $id) { id estado } }`,
        { id: trip.body.trip.id },
      );
      await subscribe(await clientOf(b.port, await a.bearer(otherPassenger.id)), NOTIFICATIONS);
      expect((await a.legacy("POST", "/viajes/accept_trip.php", { trip_id: trip.body.trip.id, conductor_id: driver.id })).status).toBe(200);
      expect((await updates.next()).tripUpdated).toEqual({ id: trip.body.trip.id, estado: "aceptado" });

      // Logins are counted in this process's memory instead.
      expect((await call(b.port, "/auth/login.php", { email: onB.email, password: PASSWORD })).status).toBe(200);
      for (let attempt = 1; attempt <= 10; attempt++) {
        expect(
          (await a.legacy("POST", "/auth/login.php", { email: locked.email, password: "Otra#Clave9" })).status,
          `attempt ${attempt}`,
        ).toBe(401);
      }
      expect((await a.legacy("POST", "/auth/login.php", { email: locked.email, password: PASSWORD })).status).toBe(429);

      // Long enough for Redis clients to give up on commands they held (their retries take ~300 ms).
      await delay(1500);
      expect(b.child.exitCode).toBeNull();
      expect(rejections).toEqual([]);

      await redis.start();
      await eventually(async () => (await readiness(a)).status === 200);
      await eventually(async () => (await fetch(`http://127.0.0.1:${b.port}/readyz`)).status === 200);
      expect((await fetch(`http://127.0.0.1:${b.port}/readyz`)).status).toBe(200);
      // The outage was one warning when it began and one line when it ended, with what it cost.
      const logged = b
        .output()
        .split("\n")
        .filter((line) => line.startsWith("{") && /Redis|event/.test(line))
        .map((line) => JSON.parse(line) as { level: number; msg: string; lost_events?: number });
      expect(logged.filter((line) => line.level >= 40).map((line) => line.msg)).toEqual([
        "Redis unavailable: events to and from other processes are lost until it returns",
      ]);
      expect(logged.find((line) => line.msg.startsWith("Redis is back"))).toMatchObject({ level: 30, lost_events: expect.any(Number) });

      // The subscriptions from before the outage hear the other process again.
      const verified = await call(b.port, "/graphql", { query: VERIFY, variables: { e: onA.email, c: await latestCode(a, onA.email) } });
      expect(verified.body.data.verifyEmail.__typename).not.toMatch(/Error/);
      expect((await heardOnA.next()).notifications).toEqual({ tipo: "cuenta_verificada", usuario_id: onA.id });
      await a.graphql(VERIFY, { e: onB.email, c: await latestCode(a, onB.email) });
      expect((await heardOnB.next()).notifications).toEqual({ tipo: "cuenta_verificada", usuario_id: onB.id });

      expect(b.child.exitCode).toBeNull();
      expect(b.output()).not.toMatch(/unhandled/i);
      expect(rejections).toEqual([]);
    },
  );
});
