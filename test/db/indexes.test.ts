import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.js";

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(() => app.close());

const INDEX = "viajes_estado_tipo_servicio_origen_latitud_idx";
// What a driver's poll for requests asks: the pending trips of a service in a box around them.
const PENDING_NEAR = `SELECT id FROM viajes WHERE estado = 'pendiente' AND tipo_servicio = 'auto'
  AND origen_latitud >= 6.20 AND origen_latitud <= 6.29 AND origen_longitud >= -75.62 AND origen_longitud <= -75.53`;

/** The database's plan for `sql`, as text; PostgreSQL is told to use an index wherever one can serve. */
async function planOf(sql: string): Promise<string> {
  if (app.server.deps.provider === "sqlite") {
    const rows = await app.db.$queryRawUnsafe<Array<{ detail: string }>>(`EXPLAIN QUERY PLAN ${sql}`);
    return rows.map((row) => row.detail).join("\n");
  }
  const rows = await app.db.$transaction(async (tx) => {
    await tx.$executeRawUnsafe("SET LOCAL enable_seqscan = off");
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
});
