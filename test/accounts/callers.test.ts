import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.js";
import { newAdmin } from "../support/drivers.js";
import { post } from "../support/fixtures.js";
import { createDriver, LLERAS } from "../support/trips.js";

let app: TestApp;
beforeAll(async () => {
  // No batch of positions among the statements counted.
  app = await createTestApp({ env: { POSITION_FLUSH_MS: "60000" } });
});
afterAll(() => app.close());

async function statementsOf(work: () => Promise<unknown>): Promise<string[]> {
  const before = app.queries.length;
  await work();
  return app.queries.slice(before);
}
const userList = (adminId: number) => app.legacy("GET", "/admin/user_management.php", { admin_id: String(adminId) });
const PING = `mutation { updateDriverLocation(latitud: 6.2087, longitud: -75.5659) { __typename } }`;

describe("who a caller is", () => {
  it("is known again without reading their account or session, by id and by token", async () => {
    const driver = await createDriver(app);
    const ping = () => post(app, "/conductor/update_location.php", { conductor_id: driver.id, ...LLERAS });
    await ping();
    expect(await statementsOf(ping)).toEqual([]);
    await app.graphql(PING, {}, driver.id);
    expect(await statementsOf(() => app.graphql(PING, {}, driver.id))).toEqual([]);
  });

  it("is first read, by id or by token, in one planned statement", async () => {
    const driver = await createDriver(app);
    const token = await app.token(driver.id);
    // Nobody remembered: what a process that has not seen them yet reads.
    app.server.deps.callers.clear();
    const byId = await statementsOf(() => post(app, "/conductor/update_location.php", { conductor_id: driver.id, ...LLERAS }));
    expect(byId).toHaveLength(1);
    expect(byId[0]).toMatch(/^SELECT t0\..* FROM usuarios t0 WHERE/);
    app.server.deps.callers.clear();
    const byToken = await statementsOf(() =>
      app.legacy("POST", "/conductor/update_location.php", { conductor_id: driver.id, ...LLERAS }, { authorization: `Bearer ${token}` }),
    );
    // The session with its user's standing, joined.
    expect(byToken).toHaveLength(1);
    expect(byToken[0]).toMatch(/^SELECT t0\..* FROM sesiones t0 LEFT JOIN usuarios t1 /);
  });

  it("is read again the moment an administrator changes their role, on a call that names them", async () => {
    const [boss, other] = [await newAdmin(app), await newAdmin(app)];
    expect((await userList(other.id)).status).toBe(200);
    const demoted = await app.legacy("PUT", "/admin/user_management.php", {
      admin_id: boss.id,
      user_id: other.id,
      tipo_usuario: "pasajero",
    });
    expect(demoted.status).toBe(200);
    expect((await userList(other.id)).status).toBe(403);
  });

  it("is read again the moment a suspension is lifted", async () => {
    const other = await newAdmin(app);
    expect((await post(app, "/admin/suspender_usuario.php", { user_id: other.id, motivo: "Revisión" })).status).toBe(200);
    expect((await userList(other.id)).status).toBe(403);
    expect((await post(app, "/admin/activar_usuario.php", { user_id: other.id })).status).toBe(200);
    expect((await userList(other.id)).status).toBe(200);
  });
});
