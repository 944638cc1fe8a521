import { Agent, get, request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { createTestApp, type TestApp } from "../support/app.js";
import { latestCode, registerUser } from "../support/fixtures.js";
import { connect, subscribe } from "../support/ws.js";

let app: TestApp;
let base: string;
let port: number;
beforeAll(async () => {
  app = await createTestApp();
  ({ port } = await app.server.start(0, "127.0.0.1"));
  base = `http://127.0.0.1:${port}`;
});
afterAll(() => app.close());

const NOTIFICATIONS = `subscription { notifications { tipo titulo usuario_id creado_en } }`;

describe("the server on a real port", () => {
  it("answers health and readiness checks", async () => {
    const health = await fetch(`${base}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: "ok" });
    const ready = await fetch(`${base}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: "ready" });
  });

  it("keeps an idle connection open for longer than the app does (15 s), and says so", async () => {
    const agent = new Agent({ keepAlive: true });
    try {
      const header = await new Promise<string | string[] | undefined>((resolve, reject) => {
        get(`${base}/healthz`, { agent }, (res) => {
          res.resume();
          res.on("end", () => resolve(res.headers["keep-alive"]));
        }).on("error", reject);
      });
      expect(header).toBe("timeout=65");
    } finally {
      agent.destroy();
    }
  });

  it("serves GraphiQL to a browser and GraphQL to clients on /graphql", async () => {
    const page = await fetch(`${base}/graphql`, { headers: { accept: "text/html" } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("GraphiQL");
    const query = await fetch(`${base}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query: "{ __typename }" }),
    });
    expect(await query.json()).toEqual({ data: { __typename: "Query" } });
  });

  it("serves the legacy shim on the same port", async () => {
    const response = await fetch(`${base}/auth/check_user.php`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "nadie@example.com" }),
    });
    expect(await response.json()).toMatchObject({ success: true, exists: false });
  });

  it("pushes notifications over graphql-ws to the user whose token the connection parameters carry", async () => {
    const user = await registerUser(app);
    const other = await registerUser(app);
    const mine = await subscribe(await connect(port, await app.bearer(user.id)), NOTIFICATIONS);
    const theirs = await subscribe(await connect(port, await app.bearer(other.id)), NOTIFICATIONS);
    await app.graphql(`mutation ($e: String!, $c: String!) { verifyEmail(email: $e, codigo: $c) { __typename } }`, {
      e: user.email,
      c: await latestCode(app, user.email),
    });
    const event = await mine.next();
    expect(event.notifications).toMatchObject({ tipo: "cuenta_verificada", usuario_id: user.id });
    expect(new Date(event.notifications.creado_en).toISOString()).toBe(event.notifications.creado_en);
    await expect(theirs.next(500)).rejects.toThrow(/no event/);
    await mine.close();
    await theirs.close();
  });

  it("refuses a WebSocket connection with a token that does not sign anyone in", async () => {
    await expect(connect(port, { authorization: "Bearer nada" })).rejects.toThrow(/4403/);
    await expect(connect(port, { authorization: "Basic dXNlcjpwYXNz" })).rejects.toThrow(/4403/);
  });

  it("reports an anonymous subscription as an error", async () => {
    const client = await connect(port);
    const subscription = await subscribe(client, NOTIFICATIONS);
    await expect(subscription.next()).rejects.toThrow(/Inicia sesión/);
  });

  it("streams subscriptions over SSE as Yoga provides", async () => {
    const user = await registerUser(app);
    const controller = new AbortController();
    const response = await fetch(`${base}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "text/event-stream", ...(await app.bearer(user.id)) },
      body: JSON.stringify({ query: NOTIFICATIONS }),
      signal: controller.signal,
    });
    expect(response.headers.get("content-type")).toMatch(/text\/event-stream/);
    const reader = response.body!.getReader();
    await new Promise((resolve) => setTimeout(resolve, 300));
    await app.graphql(`mutation ($e: String!, $c: String!) { verifyEmail(email: $e, codigo: $c) { __typename } }`, {
      e: user.email,
      c: await latestCode(app, user.email),
    });
    let text = "";
    while (!text.includes("cuenta_verificada")) {
      const { value, done } = await reader.read();
      if (done) break;
      text += new TextDecoder().decode(value);
    }
    expect(text).toContain("cuenta_verificada");
    controller.abort();
  });
});

describe("graceful shutdown", () => {
  it("finishes requests in flight, closes WebSockets and then refuses connections", async () => {
    const own = await createTestApp({ env: { BCRYPT_COST: "11" } });
    const { port: ownPort } = await own.server.start(0, "127.0.0.1");
    const socket = new WebSocket(`ws://127.0.0.1:${ownPort}/graphql`, "graphql-transport-ws");
    await new Promise((resolve) => socket.once("open", resolve));
    const closed = new Promise<number>((resolve) => socket.once("close", (code) => resolve(code)));

    // A sign-up with a slow hash is still running when the stop begins.
    const inFlight = fetch(`http://127.0.0.1:${ownPort}/auth/register.php`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "lento@example.com", password: "Clave#Segura1", name: "L", lastName: "M", phone: "3001234567" }),
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const stopped = own.server.stop();

    expect((await inFlight).status).toBe(200);
    expect(await closed).toBe(1001);
    await stopped;
    await expect(fetch(`http://127.0.0.1:${ownPort}/healthz`)).rejects.toThrow();
    await own.close();
  });

  it("does not wait for a kept-alive connection whose request was in flight to go idle", async () => {
    // Past the test's own time limit: a stop that waited for the grace period would fail it.
    const own = await createTestApp({ env: { BCRYPT_COST: "11", SHUTDOWN_TIMEOUT_MS: "60000" } });
    const { port: ownPort } = await own.server.start(0, "127.0.0.1");
    const agent = new Agent({ keepAlive: true });
    try {
      const body = JSON.stringify({ email: "lenta@example.com", password: "Clave#Segura1", name: "L", lastName: "M", phone: "3001234567" });
      const answered = new Promise<number | undefined>((resolve, reject) => {
        const sent = request(
          {
            port: ownPort,
            host: "127.0.0.1",
            path: "/auth/register.php",
            method: "POST",
            agent,
            headers: { "content-type": "application/json" },
          },
          (res) => {
            res.resume();
            res.on("end", () => resolve(res.statusCode));
          },
        );
        sent.on("error", reject);
        sent.end(body);
      });
      await new Promise((resolve) => setTimeout(resolve, 50));
      const started = Date.now();
      await Promise.all([own.server.stop(), answered.then((status) => expect(status).toBe(200))]);
      expect(Date.now() - started).toBeLessThan(15_000);
    } finally {
      agent.destroy();
      await own.close();
    }
  });

  it("is over within SHUTDOWN_TIMEOUT_MS even when a WebSocket client stops reading", async () => {
    const own = await createTestApp({ env: { SHUTDOWN_TIMEOUT_MS: "300" } });
    const { port: ownPort } = await own.server.start(0, "127.0.0.1");
    const socket = new WebSocket(`ws://127.0.0.1:${ownPort}/graphql`, "graphql-transport-ws");
    await new Promise((resolve) => socket.once("open", resolve));
    socket.send(JSON.stringify({ type: "connection_init" }));
    await new Promise((resolve) => socket.once("message", resolve));
    // The client never reads the server's closing frame, so it never answers it (ws would wait 30 s).
    // biome-ignore lint/plugin: ws keeps its TCP socket private; pausing it is how a stuck client behaves
    (socket as unknown as { _socket: { pause(): void } })._socket.pause();
    const started = Date.now();
    await own.server.stop();
    expect(Date.now() - started).toBeLessThan(10_000);
    socket.terminate();
    await own.close();
  });
});
