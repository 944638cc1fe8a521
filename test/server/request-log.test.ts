import WebSocket from "ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "../../src/logger.js";
import { createTestApp, type TestApp } from "../support/app.js";
import { logLines } from "../support/log.js";
import { createPassenger, requestTrip, createDriver } from "../support/trips.js";

/** Every line the service logs, parsed. */
const { lines, sink } = logLines();

let app: TestApp;
let base: string;
beforeAll(async () => {
  app = await createTestApp({ log: createLogger({ LOG_LEVEL: "info" }, sink) });
  base = `http://127.0.0.1:${(await app.server.start(0, "127.0.0.1")).port}`;
});
afterAll(() => app.close());

const ping = (headers: Record<string, string> = {}) => fetch(`${base}/healthz`, { headers });

describe("a request's id", () => {
  it("is the X-Request-Id sent, or a new one, in every answer", async () => {
    expect((await ping({ "x-request-id": "app-7f3a:42" })).headers.get("x-request-id")).toBe("app-7f3a:42");
    const generated = (await ping()).headers.get("x-request-id");
    expect(generated).toMatch(/^[0-9a-f-]{36}$/);
    expect((await ping()).headers.get("x-request-id")).not.toBe(generated);
    // Not something that could forge log lines.
    expect((await ping({ "x-request-id": "a b<script>" })).headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("is in the log lines written while serving it; a refusal the caller caused is logged below error", async () => {
    await createDriver(app);
    const owner = await createPassenger(app);
    const trip = await requestTrip(app, owner.id);
    const stranger = await createPassenger(app);
    const before = lines.length;
    const response = await fetch(`${base}/graphql`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "text/event-stream",
        authorization: `Bearer ${await app.token(stranger.id)}`,
        "x-request-id": "sub-refused-1",
      },
      body: JSON.stringify({ query: `subscription ($id: Int!) { tripUpdated(trip_id: $id) { id } }`, variables: { id: trip.id } }),
      signal: AbortSignal.timeout(5000),
    });
    expect(await response.text()).toContain("FORBIDDEN");
    const written = lines.slice(before);
    expect(written.filter((line) => line.request_id === "sub-refused-1").length).toBeGreaterThan(0);
    expect(written.filter((line) => (line.level as number) >= 50)).toEqual([]);
  });

  it("is a WebSocket connection's too: in its upgrade answer and in its operations' log lines", async () => {
    await createDriver(app);
    const trip = await requestTrip(app, (await createPassenger(app)).id);
    const stranger = await createPassenger(app);
    const socket = new WebSocket(`${base.replace("http", "ws")}/graphql`, "graphql-transport-ws", {
      headers: { "x-request-id": "ws-conexion-1" },
    });
    const upgraded = new Promise<string | undefined>((resolve) =>
      socket.once("upgrade", (response) => resolve(response.headers["x-request-id"] as string)),
    );
    const messages: Array<{ type: string; id?: string; payload?: unknown }> = [];
    const until = (seen: (message: { type: string; id?: string }) => boolean) =>
      new Promise<void>((resolve) => {
        const check = () => (messages.some(seen) ? resolve() : socket.once("message", check));
        check();
      });
    socket.on("message", (data) => messages.push(JSON.parse(data.toString())));
    await new Promise((resolve) => socket.once("open", resolve));
    expect(await upgraded).toBe("ws-conexion-1");
    const before = lines.length;
    socket.send(JSON.stringify({ type: "connection_init", payload: { authorization: `Bearer ${await app.token(stranger.id)}` } }));
    await until((m) => m.type === "connection_ack");
    socket.send(
      JSON.stringify({ id: "1", type: "subscribe", payload: { query: `subscription { tripUpdated(trip_id: ${trip.id}) { id } }` } }),
    );
    // Refused: its errors, then the end of that subscription.
    await until((m) => m.id === "1" && (m.type === "complete" || m.type === "error"));
    socket.close();
    const written = lines.slice(before);
    expect(written.filter((line) => line.request_id === "ws-conexion-1").length).toBeGreaterThan(0);
    expect(written.filter((line) => (line.level as number) >= 50)).toEqual([]);
  });
});
