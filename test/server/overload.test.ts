import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.js";
import { ESTADIO, LLERAS, createDriver } from "../support/trips.js";

const REQUESTS = 200;
let app: TestApp;
let base: string;
beforeAll(async () => {
  // Two connections for 200 requests; each may wait for one long enough that a busy test machine
  // still serves most of them (the tests below turn requests away on purpose).
  app = await createTestApp({ env: { DATABASE_POOL_SIZE: "2", DATABASE_POOL_TIMEOUT_MS: "15000", MAX_QUEUE_WAIT_MS: "15000" } });
  base = `http://127.0.0.1:${(await app.server.start(0, "127.0.0.1")).port}`;
});
afterAll(() => app.close());

// 200 trips through two connections take a quarter of a minute alone, more on a loaded machine.
describe("a burst of trip requests on a small database pool", { timeout: 90_000 }, () => {
  it("is served or turned away with 503 and Retry-After, never with another 5xx, and most are served", async () => {
    for (let i = 0; i < 5; i++) await createDriver(app);
    const tag = `rafaga-${Date.now()}`;
    await app.db.user.createMany({
      data: Array.from({ length: REQUESTS }, (_, i) => ({
        email: `${tag}-${i}@example.com`,
        nombre: "R",
        apellido: "F",
        telefono: "3000000000",
        password_hash: "x",
        tipo_usuario: "pasajero",
      })),
    });
    const passengers = await app.db.user.findMany({ where: { email: { startsWith: tag } }, select: { id: true } });
    const answers = await Promise.all(
      passengers.map(async ({ id }) => {
        const response = await fetch(`${base}/viajes/create_trip.php`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ usuario_id: id, tipo_servicio: "auto", origen: LLERAS, destino: ESTADIO }),
        });
        return { status: response.status, retryAfter: response.headers.get("retry-after"), body: await response.json() };
      }),
    );
    const byStatus: Record<string, typeof answers> = {};
    for (const answer of answers) {
      byStatus[answer.status] ??= [];
      byStatus[answer.status]!.push(answer);
    }
    expect(Object.keys(byStatus).filter((status) => status.startsWith("5") && status !== "503")).toEqual([]);
    for (const busy of byStatus["503"] ?? []) {
      expect(busy.retryAfter).toMatch(/^\d+$/);
      expect(busy.body).toEqual({ success: false, message: expect.stringMatching(/ocupado/) });
    }
    expect(byStatus["200"]?.length ?? 0).toBeGreaterThan(REQUESTS / 2);
    expect(await app.db.trip.count({ where: { usuario_id: { in: passengers.map((p) => p.id) } } })).toBe(byStatus["200"]?.length);
  });

  it(
    "turns away, with 503 and Retry-After in each interface's shape, " + "requests that would wait too long, but not health checks",
    async () => {
      // One request at a time, a tenth of a second in line at most; a sign-up with a slow hash holds the only place.
      const own = await createTestApp({ env: { MAX_CONCURRENT_REQUESTS: "1", MAX_QUEUE_WAIT_MS: "100", BCRYPT_COST: "13" } });
      try {
        const url = `http://127.0.0.1:${(await own.server.start(0, "127.0.0.1")).port}`;
        const slow = fetch(`${url}/auth/register.php`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({
            email: `lento.${Date.now()}@example.com`,
            password: "Clave#Segura1",
            name: "L",
            lastName: "M",
            phone: "3001234567",
          }),
        });
        await new Promise((resolve) => setTimeout(resolve, 50));
        const [legacy, graphql, health] = await Promise.all([
          fetch(`${url}/viajes/get_trip.php?trip_id=1`),
          fetch(`${url}/graphql`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ query: "{ __typename }" }),
          }),
          fetch(`${url}/healthz`),
        ]);
        expect([legacy.status, legacy.headers.get("retry-after"), await legacy.json()]).toEqual([
          503,
          "2",
          { success: false, message: expect.stringMatching(/ocupado/) },
        ]);
        expect([graphql.status, graphql.headers.get("retry-after"), await graphql.json()]).toEqual([
          503,
          "2",
          { errors: [{ message: expect.stringMatching(/ocupado/), extensions: { code: "SERVICE_UNAVAILABLE" } }] },
        ]);
        expect(health.status).toBe(200);
        expect((await slow).status).toBe(200);
      } finally {
        await own.close();
      }
    },
  );
});
