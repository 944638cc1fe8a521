import { randomUUID } from "node:crypto";
import type { Client } from "graphql-ws";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { loadConfig } from "../../src/config.js";
import { MAX_OPERATIONS } from "../../src/metrics/labels.js";
import { createTestApp, type TestApp } from "../support/app.js";
import { post, registerUser } from "../support/fixtures.js";
import { createDriver, createPassenger, requestTrip } from "../support/trips.js";
import { connect, subscribe } from "../support/ws.js";

const TOKEN = "token-de-metricas-0123456789";

let app: TestApp;
let base: string;
let port: number;
beforeAll(async () => {
  app = await createTestApp({ env: { METRICS_TOKEN: TOKEN } });
  ({ port } = await app.server.start(0, "127.0.0.1"));
  base = `http://127.0.0.1:${port}`;
});
afterAll(() => app.close());

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The samples of a Prometheus text exposition. */
function parse(text: string): Sample[] {
  return text
    .split("\n")
    .filter((line) => line !== "" && !line.startsWith("#"))
    .map((line) => {
      const [, name = "", labels = "", value] = /^([\w:]+)(?:\{(.*)\})? (\S+)$/.exec(line)!;
      return {
        name,
        labels: Object.fromEntries([...labels.matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map(([, k, v]) => [k, v])),
        value: Number(value),
      };
    });
}

class Scrape {
  constructor(readonly samples: Sample[]) {}
  /** The sum of the samples of `name` that carry `labels` (among others). */
  sum(name: string, labels: Record<string, string> = {}): number {
    return this.samples
      .filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
      .reduce((total, s) => total + s.value, 0);
  }
  /** The values a label takes in the samples of `name`. */
  values(name: string, label: string): Set<string> {
    return new Set(this.samples.filter((s) => s.name === name && label in s.labels).map((s) => s.labels[label]!));
  }
}

async function scrape(): Promise<Scrape> {
  const response = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
  expect(response.status).toBe(200);
  return new Scrape(parse(await response.text()));
}

const graphql = (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  fetch(`${base}/graphql`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });

describe("/metrics", () => {
  it("needs the token when METRICS_TOKEN is set, and answers in Spanish when it is missing or wrong", async () => {
    const refused: Array<Record<string, string>> = [{}, { authorization: "Bearer otro-token-que-no-es-0000" }, { authorization: TOKEN }];
    for (const headers of refused) {
      const response = await fetch(`${base}/metrics`, { headers });
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({ success: false, message: expect.stringMatching(/^Las métricas requieren/) });
    }
    const response = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(await response.text()).toMatch(/^process_cpu_user_seconds_total /m);
  });

  it("is not counted among the requests it reports", async () => {
    await scrape();
    expect((await scrape()).values("http_request_duration_seconds_count", "route")).not.toContain("/metrics");
  });

  it("counts legacy calls by path, GraphQL operations by name, and the errors they answer by code", async () => {
    const user = await registerUser(app);
    const before = await scrape();
    const login = await fetch(`${base}/auth/login.php`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: user.email, password: "Incorrecta#1" }),
    });
    expect(login.status).toBe(401);
    expect((await graphql({ query: "query SondaDeMetricas { __typename }" })).status).toBe(200);
    // Not signed in: refused before it runs.
    expect((await graphql({ query: "query { trip(trip_id: 1) { __typename } }" })).status).toBe(401);
    const after = await scrape();

    const moved = (name: string, labels: Record<string, string>) => after.sum(name, labels) - before.sum(name, labels);
    expect(moved("http_request_duration_seconds_count", { method: "POST", route: "/auth/login.php", status: "401" })).toBe(1);
    expect(moved("http_request_duration_seconds_count", { route: "/graphql", status: "200" })).toBe(1);
    expect(moved("http_request_duration_seconds_count", { route: "/graphql", status: "401" })).toBe(1);
    // The legacy call runs its GraphQL operation, counted as well.
    expect(moved("graphql_operation_duration_seconds_count", { transport: "legacy", type: "mutation", outcome: "error" })).toBe(1);
    expect(moved("graphql_operation_duration_seconds_count", { operation: "SondaDeMetricas", transport: "http", outcome: "ok" })).toBe(1);
    expect(moved("graphql_operation_duration_seconds_count", { operation: "trip", outcome: "error" })).toBe(1);
    expect(moved("app_errors_total", { code: "INVALID_CREDENTIALS" })).toBe(1);
    expect(moved("app_errors_total", { code: "UNAUTHENTICATED" })).toBe(1);
  });

  it("counts the errors of calls turned away before any operation runs", async () => {
    const before = await scrape();
    // A field the call does not have, refused by the shim itself.
    const invalid = await fetch(`${base}/auth/profile_update.php`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ userId: 1, rol: "admin" }),
    });
    expect(invalid.status).toBe(400);
    expect((await fetch(`${base}/auth/no_existe.php`)).status).toBe(404);
    for (const query of ["query { __typename", "query { campoQueNoExiste }"]) {
      expect(await (await graphql({ query })).json()).toMatchObject({ errors: [expect.anything()] });
    }
    const after = await scrape();

    const moved = (code: string) => after.sum("app_errors_total", { code }) - before.sum("app_errors_total", { code });
    expect(moved("VALIDATION")).toBe(1);
    expect(moved("NOT_FOUND")).toBe(1);
    expect(moved("BAD_REQUEST")).toBe(2);
  });

  it("counts open WebSockets, subscriptions by field (one per subscriber, shared or not), drivers online and pending trips", async () => {
    const before = await scrape();
    const driver = await createDriver(app);
    const passenger = await createPassenger(app);
    const trip = await requestTrip(app, passenger.id);
    const clients: Client[] = [await connect(port, await app.bearer(passenger.id)), await connect(port, await app.bearer(passenger.id))];
    const TRIP_UPDATED = `subscription ($id: Int!) { tripUpdated(trip_id: $id) { id estado } }`;
    // The same subscription twice: one shared execution, two subscribers.
    const subscriptions: Array<Awaited<ReturnType<typeof subscribe>>> = [];
    for (const client of clients) subscriptions.push(await subscribe(client, TRIP_UPDATED, { id: trip.id }));
    const during = await scrape();

    const moved = (name: string, labels: Record<string, string> = {}) => during.sum(name, labels) - before.sum(name, labels);
    expect(moved("websocket_connections")).toBe(2);
    expect(moved("graphql_subscriptions", { field: "tripUpdated" })).toBe(2);
    expect(moved("drivers_online", { vehicle_type: "auto", available: "true" })).toBe(1);
    expect(moved("trips_pending")).toBe(1);

    expect((await post(app, "/viajes/accept_trip.php", { trip_id: trip.id, conductor_id: driver.id })).status).toBe(200);
    for (const subscription of subscriptions)
      expect(await subscription.next()).toEqual({ tripUpdated: { id: trip.id, estado: "aceptado" } });
    await subscriptions[0]!.close();
    await clients[1]!.dispose();
    await vi.waitFor(async () => {
      const after = await scrape();
      expect(after.sum("websocket_connections")).toBe(before.sum("websocket_connections") + 1);
      expect(after.sum("graphql_subscriptions", { field: "tripUpdated" })).toBe(
        before.sum("graphql_subscriptions", { field: "tripUpdated" }),
      );
      // Taken: the driver is busy and the trip no longer pending.
      expect(after.sum("drivers_online", { vehicle_type: "auto", available: "false" })).toBe(
        before.sum("drivers_online", { vehicle_type: "auto", available: "false" }) + 1,
      );
      expect(after.sum("trips_pending")).toBe(before.sum("trips_pending"));
    });
    await clients[0]!.dispose();
    await vi.waitFor(async () => expect((await scrape()).sum("websocket_connections")).toBe(before.sum("websocket_connections")));
  });

  it("counts open event streams and their subscriptions until the client goes", async () => {
    const passenger = await createPassenger(app);
    await createDriver(app);
    const trip = await requestTrip(app, passenger.id);
    const before = await scrape();
    const stop = new AbortController();
    const stream = await graphql(
      { query: `subscription ($id: Int!) { tripUpdated(trip_id: $id) { id } }`, variables: { id: trip.id } },
      { accept: "text/event-stream", ...(await app.bearer(passenger.id)) },
    );
    expect(stream.headers.get("content-type")).toMatch(/^text\/event-stream/);
    void stream.body!.pipeTo(new WritableStream(), { signal: stop.signal }).catch(() => undefined);
    const during = await scrape();
    expect(during.sum("sse_streams") - before.sum("sse_streams")).toBe(1);
    expect(
      during.sum("graphql_subscriptions", { field: "tripUpdated" }) - before.sum("graphql_subscriptions", { field: "tripUpdated" }),
    ).toBe(1);

    stop.abort();
    await vi.waitFor(async () => {
      const after = await scrape();
      expect(after.sum("sse_streams")).toBe(before.sum("sse_streams"));
      expect(after.sum("graphql_subscriptions", { field: "tripUpdated" })).toBe(
        before.sum("graphql_subscriptions", { field: "tripUpdated" }),
      );
    });
  });

  it("reports the event bus and the process", async () => {
    const now = await scrape();
    expect(now.sum("event_bus_connected", { mode: "in-process" })).toBe(1);
    expect(now.sum("event_bus_events_lost_total")).toBe(0);
    expect(now.sum("process_resident_memory_bytes")).toBeGreaterThan(0);
    // The pool's gauges exist where there is a pool.
    const postgres = app.server.deps.provider === "postgresql";
    expect(now.samples.filter((s) => s.name.startsWith("db_pool_")).map((s) => s.name)).toEqual(
      postgres ? ["db_pool_in_use", "db_pool_waiting"] : [],
    );
    expect(now.sum("http_requests_in_flight")).toBeGreaterThanOrEqual(0);
  });

  it("turns unknown paths and operation names past the limit into `other`, so callers cannot add series", async () => {
    await fetch(`${base}/${randomUUID()}`);
    await fetch(`${base}/viajes/${randomUUID()}.php`, { method: "POST", body: "{}" });
    const long = `Q${"x".repeat(80)}`;
    expect((await graphql({ query: `query ${long} { __typename }` })).status).toBe(200);
    for (let i = 0; i <= MAX_OPERATIONS; i++)
      expect((await graphql({ query: `query Nombre${randomUUID().slice(0, 8)} { __typename }` })).status).toBe(200);
    const after = await scrape();

    const routes = after.values("http_request_duration_seconds_count", "route");
    expect([...routes].filter((route) => !route.endsWith(".php") && !route.startsWith("/graphql"))).toEqual(["other"]);
    expect([...routes].some((route) => /[0-9a-f]{8}-/.test(route))).toBe(false);
    const operations = after.values("graphql_operation_duration_seconds_count", "operation");
    expect(operations.has(long)).toBe(false);
    expect(operations.has("__typename")).toBe(true);
    expect(operations.has("other")).toBe(true);
    expect(operations.size).toBeLessThanOrEqual(MAX_OPERATIONS + 1);
  });

  it("answers when a reading fails, with NaN for what it could not read", async () => {
    const count = vi.spyOn(app.server.deps.db.trip, "count").mockRejectedValue(new Error("la base de datos no responde"));
    try {
      const during = await scrape();
      expect(during.sum("trips_pending")).toBeNaN();
      expect(during.sum("event_bus_connected")).toBe(1);
    } finally {
      count.mockRestore();
    }
    expect((await scrape()).sum("trips_pending")).not.toBeNaN();
  });
});

describe("METRICS_TOKEN", () => {
  it("must be long enough to be a secret", () => {
    expect(() => loadConfig({ METRICS_TOKEN: "corto" })).toThrow(/METRICS_TOKEN/);
    expect(loadConfig({ METRICS_TOKEN: TOKEN }).METRICS_TOKEN).toBe(TOKEN);
  });

  it("unset, leaves /metrics open outside production and closed in production; each server counts apart", async () => {
    for (const [NODE_ENV, status] of [
      ["test", 200],
      ["production", 403],
    ] as const) {
      const other = await createTestApp({ env: { NODE_ENV } });
      try {
        const response = await other.server.fetch(new Request("http://test/metrics"));
        expect(response.status).toBe(status);
        if (status === 403) expect(await response.json()).toEqual({ success: false, message: expect.stringMatching(/METRICS_TOKEN/) });
        // A fresh server has counted no request of the other one's.
        else expect(parse(await response.text()).filter((s) => s.name === "http_request_duration_seconds_count")).toEqual([]);
      } finally {
        await other.close();
      }
    }
  });
});
