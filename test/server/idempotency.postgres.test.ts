import { createHash, randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../../src/db/client.js";
import { REPLAYED_HEADER } from "../../src/http/idempotency.js";
import { createTestDatabase, type TestDatabase } from "../support/database.js";
import { approveInDatabase, registerOn, startPair, type ServiceProcess } from "../support/process.js";
import { ESTADIO, LLERAS } from "../support/trips.js";
import { PASSWORD, uniqueEmail } from "../support/fixtures.js";

/** Two service processes on one PostgreSQL database: the idempotency record is what they share. */
let database: TestDatabase;
let a: ServiceProcess;
let b: ServiceProcess;
let db: Database;

beforeAll(async () => {
  database = await createTestDatabase("postgresql");
  [a, b] = await startPair(database.url);
  db = await openDatabase(database.url);
});

afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await db?.close();
  await database?.drop();
});

const call = async (service: ServiceProcess, path: string, body: Record<string, unknown>, headers: Record<string, string> = {}) => {
  const response = await fetch(`http://127.0.0.1:${service.port}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, headers: response.headers, text: await response.text() };
};

describe("Idempotency-Key across two processes", () => {
  it("runs a create_trip.php sent to both processes at once with one key once, and both answer the same", async () => {
    const driver = await registerOn(a, "conductor");
    await approveInDatabase(db.prisma, driver.id);
    // Online on both: each process announces to the other, and the trip may be created on either.
    for (const service of [a, b]) {
      expect(
        (await call(service, "/conductor/update_location.php", { conductor_id: driver.id, ...LLERAS, disponibilidad: 1 })).status,
      ).toBe(200);
    }
    const passenger = await registerOn(b, "pasajero");

    const key = randomUUID();
    const trip = { usuario_id: passenger.id, tipo_servicio: "auto", origen: LLERAS, destino: ESTADIO };
    const send = (service: ServiceProcess) => call(service, "/viajes/create_trip.php", trip, { "idempotency-key": key });
    const [fromA, fromB] = await Promise.all([send(a), send(b)]);
    expect([fromA.status, fromB.status]).toEqual([200, 200]);
    expect(fromB.text).toBe(fromA.text);
    expect(fromB.headers.get("content-type")).toBe(fromA.headers.get("content-type"));
    expect(JSON.parse(fromA.text)).toMatchObject({ success: true, trip: { usuario_id: passenger.id } });
    // One of them ran it; the other heard its answer.
    expect([fromA, fromB].filter((r) => r.headers.get(REPLAYED_HEADER) === "true")).toHaveLength(1);
    expect(await db.prisma.trip.count({ where: { usuario_id: passenger.id } })).toBe(1);
  });

  it("runs a keyed request whose expired record another process deletes while it looks at it", async () => {
    const key = randomUUID();
    const hour = 3600 * 1000;
    const expired = await db.prisma.idempotentRequest.create({
      data: {
        clave: createHash("sha256").update(key).digest("hex"),
        huella_credencial: "",
        metodo: "POST",
        ruta: "/auth/register.php",
        huella_cuerpo: "antes",
        estado: "terminada",
        creado_en: new Date(Date.now() - 25 * hour),
        expira_en: new Date(Date.now() - hour),
      },
    });
    // Another process's sweep deletes the record and has not committed yet when the request finds it.
    const sweep = new pg.Client({ connectionString: database.url });
    await sweep.connect();
    try {
      await sweep.query("BEGIN");
      await sweep.query("DELETE FROM solicitudes_idempotentes WHERE id = $1", [expired.id]);
      const signUp = { email: uniqueEmail(), password: PASSWORD, name: "Ana", lastName: "Restrepo", phone: "3001234567" };
      const answer = call(a, "/auth/register.php", signUp, { "idempotency-key": key });
      // The request has found the record and waits for this delete to end.
      const blocked = async () =>
        (await sweep.query("SELECT pid FROM pg_stat_activity WHERE pg_backend_pid() = ANY(pg_blocking_pids(pid))")).rowCount;
      await expect.poll(blocked, { timeout: 10_000 }).toBe(1);
      await sweep.query("COMMIT");
      const { status, text } = await answer;
      expect(status).toBe(200);
      expect(JSON.parse(text)).toMatchObject({ success: true, user: { email: signUp.email } });
    } finally {
      await sweep.end();
    }
  });
});
