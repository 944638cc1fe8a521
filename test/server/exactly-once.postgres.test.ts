import { randomUUID } from "node:crypto";
import { setTimeout as delay } from "node:timers/promises";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../../src/db/client.js";
import { REPLAYED_HEADER } from "../../src/http/idempotency.js";
import { createPgCluster, type PgCluster } from "../support/pg-cluster.js";
import { approveInDatabase, registerOn, startService, type ServiceProcess } from "../support/process.js";
import { ESTADIO, LLERAS } from "../support/trips.js";

/**
 * The window a retried request falls into when its first attempt dies: the work of a keyed request
 * and the answer kept for it commit together, so a retry either finds that answer or runs the work
 * for the first time, at once. Aimed at on purpose: the first attempt is held inside its work (its
 * passenger's row locked by the test) while its process is killed or its database restarts.
 */
let cluster: PgCluster;
let url: string;
let db: Database;
const services: ServiceProcess[] = [];

beforeAll(async () => {
  cluster = await createPgCluster();
  await cluster.sql("CREATE DATABASE unica_vez");
  url = cluster.url("unica_vez");
}, 60_000);

afterAll(async () => {
  await Promise.all(services.map((service) => service.stop("SIGKILL")));
  await db?.close();
  await cluster?.destroy();
});

const start = async () => {
  const service = await startService({ DATABASE_URL: url });
  services.push(service);
  return service;
};

const call = async (service: ServiceProcess, path: string, body: Record<string, unknown>, headers: Record<string, string> = {}) => {
  const response = await fetch(`http://127.0.0.1:${service.port}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, headers: response.headers, body: await response.json() };
};

/** A passenger with an online driver nearby, known to both processes. */
async function ready(a: ServiceProcess, b: ServiceProcess) {
  const driver = await registerOn(a, "conductor");
  await approveInDatabase(db.prisma, driver.id);
  for (const service of [a, b]) {
    const online = await call(service, "/conductor/update_location.php", { conductor_id: driver.id, ...LLERAS, disponibilidad: 1 });
    expect(online.status).toBe(200);
  }
  return registerOn(b, "pasajero");
}

/** Holds the passenger's row, so that a trip request for them waits inside its work until `release`. */
async function holdPassenger(passengerId: number) {
  const client = new pg.Client({ connectionString: url });
  // A database restart cuts this connection too: that is expected.
  client.on("error", () => undefined);
  await client.connect();
  await client.query("BEGIN");
  await client.query("SELECT id FROM usuarios WHERE id = $1 FOR UPDATE", [passengerId]);
  const waiting = async () => {
    for (;;) {
      const { rows } = await client.query(
        "SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND pid <> pg_backend_pid()",
      );
      if (rows[0].n > 0) return;
      await delay(20);
    }
  };
  return {
    /** Resolves once a request waits for the row. */
    waiting,
    release: async () => {
      await client.query("ROLLBACK");
      await client.end();
    },
  };
}

const tripRequest = (usuario_id: number) => ({ usuario_id, tipo_servicio: "auto", origen: LLERAS, destino: ESTADIO });

describe("a keyed trip request whose first attempt dies", () => {
  let a: ServiceProcess;
  let b: ServiceProcess;
  beforeAll(async () => {
    [a, b] = [await start(), await start()];
    db = await openDatabase(url);
  }, 60_000);

  it("killed in the middle of its work, is run by the retry on the other process at once, and only once", async () => {
    const passenger = await ready(a, b);
    const held = await holdPassenger(passenger.id);
    const key = randomUUID();
    const first = call(a, "/viajes/create_trip.php", tripRequest(passenger.id), { "idempotency-key": key }).catch((error) => error);
    await held.waiting();
    await a.stop("SIGKILL");
    await held.release();
    expect(await first).toBeInstanceOf(Error);

    const retry = await call(b, "/viajes/create_trip.php", tripRequest(passenger.id), { "idempotency-key": key });
    expect(retry.status, JSON.stringify(retry.body)).toBe(200);
    expect(retry.headers.get(REPLAYED_HEADER)).toBeNull();
    const trips = await db.prisma.trip.findMany({ where: { usuario_id: passenger.id } });
    expect(trips.map((trip) => trip.id)).toEqual([retry.body.trip.id]);

    // Again, once more: the answer now kept is the one the retry got.
    const again = await call(b, "/viajes/create_trip.php", tripRequest(passenger.id), { "idempotency-key": key });
    expect(again.headers.get(REPLAYED_HEADER)).toBe("true");
    expect(again.body).toEqual(retry.body);
    a = await start();
  });

  it("cut off by a database restart in the middle of its work, is answered 503 and run once by the retry", async () => {
    const passenger = await ready(a, b);
    const held = await holdPassenger(passenger.id);
    const key = randomUUID();
    const first = call(a, "/viajes/create_trip.php", tripRequest(passenger.id), { "idempotency-key": key });
    await held.waiting();
    await cluster.restart("immediate");
    await held.release().catch(() => undefined);
    const cut = await first;
    expect(cut.status, JSON.stringify(cut.body)).toBe(503);
    expect(cut.headers.get("retry-after")).toMatch(/^\d+$/);

    // The retry may find the database still waking: 503 again, then the one trip.
    let retry = await call(b, "/viajes/create_trip.php", tripRequest(passenger.id), { "idempotency-key": key });
    for (let tries = 0; retry.status === 503 && tries < 50; tries++) {
      await delay(200);
      retry = await call(b, "/viajes/create_trip.php", tripRequest(passenger.id), { "idempotency-key": key });
    }
    expect(retry.status, JSON.stringify(retry.body)).toBe(200);
    const trips = await db.prisma.trip.findMany({ where: { usuario_id: passenger.id } });
    expect(trips.map((trip) => trip.id)).toEqual([retry.body.trip.id]);
  });

  it("answered and then lost by its client, is answered again with the same trip, not a second one", async () => {
    const passenger = await ready(a, b);
    const key = randomUUID();
    const lost = await call(a, "/viajes/create_trip.php", tripRequest(passenger.id), { "idempotency-key": key });
    expect(lost.status).toBe(200);
    await a.stop("SIGKILL");
    const retry = await call(b, "/viajes/create_trip.php", tripRequest(passenger.id), { "idempotency-key": key });
    expect(retry.headers.get(REPLAYED_HEADER)).toBe("true");
    expect(retry.body).toEqual(lost.body);
    expect(await db.prisma.trip.count({ where: { usuario_id: passenger.id } })).toBe(1);
  });
});
