import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../support/database.js";
import { PASSWORD, uniqueEmail } from "../support/fixtures.js";
import { startPair, type ServiceProcess } from "../support/process.js";
import { connect } from "../support/ws.js";

/** Two service processes on one PostgreSQL database, sharing the local Redis. */
let database: TestDatabase;
let a: ServiceProcess;
let b: ServiceProcess;

beforeAll(async () => {
  database = await createTestDatabase("postgresql");
  [a, b] = await startPair(database.url);
});

afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await database?.drop();
});

async function call(service: ServiceProcess, path: string, body: Record<string, unknown>, headers: Record<string, string> = {}) {
  const response = await fetch(`http://127.0.0.1:${service.port}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

async function signedUp() {
  const email = uniqueEmail();
  const registered = await call(a, "/auth/register.php", { email, password: PASSWORD, name: "N", lastName: "M", phone: "3001234567" });
  expect(registered.body.success).toBe(true);
  return email;
}

describe("sessions across processes", () => {
  it("end on every process when revoked on one: the next call is refused and open sockets close", async () => {
    const email = await signedUp();
    const { token } = (await call(a, "/auth/login.php", { email, password: PASSWORD })).body;
    const bearer = { authorization: `Bearer ${token}` };
    const client = await connect(b.port, bearer);
    const closed = new Promise<number>((resolve) => client.on("closed", (event) => resolve((event as { code: number }).code)));
    const notifications = `{ notifications { __typename } }`;
    expect((await call(b, "/graphql", { query: notifications }, bearer)).body.data.notifications.__typename).toBe(
      "QueryNotificationsSuccess",
    );

    expect((await call(a, "/auth/logout.php", {}, bearer)).status).toBe(200);
    const refused = await call(b, "/graphql", { query: notifications }, bearer);
    expect(refused.status).toBe(401);
    expect(refused.body.errors[0].extensions.code).toBe("UNAUTHENTICATED");
    expect(await closed).toBe(4403);
    await client.dispose();
  });

  it("count wrong passwords together: after ten on one process, the other answers 429", async () => {
    const email = await signedUp();
    for (let attempt = 0; attempt < 10; attempt++) {
      expect((await call(attempt % 2 ? a : b, "/auth/login.php", { email, password: "Otra#Clave9" })).status).toBe(401);
    }
    const locked = await call(a, "/auth/login.php", { email, password: PASSWORD });
    expect(locked.status).toBe(429);
  });
});
