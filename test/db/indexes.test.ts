import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.js";

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(() => app.close());

const INDEX = "viajes_estado_tipo_servicio_origen_latitud_origen_longitud_idx";
// What a driver's poll for requests asks: the pending trips of a service in a box around them.
const PENDING_NEAR = `SELECT id FROM viajes WHERE estado = 'pendiente' AND tipo_servicio = 'auto'
  AND origen_latitud >= 6.20 AND origen_latitud <= 6.29 AND origen_longitud >= -75.62 AND origen_longitud <= -75.53`;

// What pricing asks of every trip request: how many of them wait within a circle of the pickup (src/db/nearby.ts).
const PENDING_COUNT = `SELECT COUNT(*) AS n FROM (SELECT 1 FROM viajes WHERE estado = 'pendiente' AND tipo_servicio = 'auto'
  AND origen_latitud BETWEEN 6.20 AND 6.29 AND origen_longitud BETWEEN -75.62 AND -75.53
  AND (origen_latitud - 6.245) * (origen_latitud - 6.245) + (origen_longitud + 75.575) * (origen_longitud + 75.575) <= 0.002 LIMIT 900) AS c`;

/** The database's plan for `sql`, as text; PostgreSQL is told to use an index wherever one can serve. */
async function planOf(sql: string): Promise<string> {
  if (app.server.deps.provider === "sqlite") {
    const rows = await app.db.$queryRawUnsafe<Array<{ detail: string }>>(`EXPLAIN QUERY PLAN ${sql}`);
    return rows.map((row) => row.detail).join("\n");
  }
  const rows = await app.db.$transaction(async (tx) => {
    await tx.$executeRawUnsafe("SET LOCAL enable_seqscan = off");
    await tx.$executeRawUnsafe("SET LOCAL enable_bitmapscan = off");
    return tx.$queryRawUnsafe<Array<{ "QUERY PLAN": string }>>(`EXPLAIN ${sql}`);
  });
  return rows.map((row) => row["QUERY PLAN"]).join("\n");
}

describe("indexes", () => {
  it("find the pending trips near a driver by state, service and a range of latitudes", async () => {
    const plan = await planOf(PENDING_NEAR);
    expect(plan).toContain(INDEX);
    // The latitudes bound the search itself, not only a filter of what it found.
    expect(plan).toMatch(/origen_latitud\s*(>|<|BETWEEN)|Index Cond: .*origen_latitud/);
  });

  it("count the pending trips near a pickup from the index alone, never reading the trips", async () => {
    const plan = await planOf(PENDING_COUNT);
    expect(plan).toMatch(new RegExp(`COVERING INDEX ${INDEX}|Index Only Scan using ${INDEX}`));
  });
});
