import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPLAYED_HEADER } from "../../src/http/idempotency.js";
import { createTestApp, type TestApp } from "../support/app.js";
import { createDriver } from "../support/trips.js";

const ADMIN = "https://admin.example.co";
let app: TestApp;
let driverId: number;
beforeAll(async () => {
  app = await createTestApp({ env: { CORS_ORIGINS: ADMIN } });
  driverId = (await createDriver(app)).id;
});
afterAll(() => app.close());

const HEADERS = ["content-type", "x-content-type-options", "cache-control", "allow", "retry-after", "access-control-allow-origin"];
const headersOf = (headers: Headers) => Object.fromEntries(HEADERS.map((name) => [name, headers.get(name)]));
// The moment a position was stored differs from one call to the next.
const withoutMoment = (body: any) => (body?.ubicacion ? { ...body, ubicacion: { ...body.ubicacion, posicion_en: "…" } } : body);

/** The same call through Yoga, in-process: status, body and headers. */
async function throughYoga(method: string, path: string, body?: unknown) {
  const init: RequestInit = { method };
  let url = `http://test${path}`;
  if (method === "GET" && body) url += `?${new URLSearchParams(body as Record<string, string>)}`;
  else if (body !== undefined) {
    init.body = typeof body === "string" ? body : JSON.stringify(body);
    init.headers = { "content-type": "application/json" };
  }
  const response = await app.server.fetch(new Request(url, init));
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null, headers: headersOf(response.headers) };
}

describe("legacy calls over a socket", () => {
  it("are answered as Yoga answers them: status, body and headers, successes and refusals alike", async () => {
    const calls: Array<[string, string, unknown?]> = [
      ["POST", "/conductor/update_location.php", { conductor_id: driverId, latitud: 6.25, longitud: -75.57 }],
      ["POST", "/conductor/update_location.php", { conductor_id: driverId, latitud: "norte", longitud: -75.57 }],
      ["POST", "/conductor/update_location.php", { conductor_id: driverId, latitud: 6.25, longitud: -75.57, rumbo: 90 }],
      ["GET", "/conductor/get_profile.php", { conductor_id: String(driverId) }],
      ["POST", "/auth/login.php", '{"email":'],
      ["POST", "/auth/login.php", `{"email":"${"x".repeat(1024 * 1024)}"}`],
      ["GET", "/auth/login.php"],
      ["GET", "/viajes/no_existe.php"],
      ["OPTIONS", "/conductor/update_location.php"],
    ];
    for (const [method, path, body] of calls) {
      const socket = await app.legacy(method, path, body);
      const yoga = await throughYoga(method, path, body);
      const over = { status: socket.status, body: withoutMoment(socket.body), headers: headersOf(socket.headers) };
      expect(over, `${method} ${path}`).toEqual({ ...yoga, body: withoutMoment(yoga.body) });
    }
  });

  it("leave to Yoga those another part acts on: a browser's Origin (CORS) and an Idempotency-Key", async () => {
    const ping = { conductor_id: driverId, latitud: 6.26, longitud: -75.58 };
    const fromBrowser = await app.legacy("POST", "/conductor/update_location.php", ping, { origin: ADMIN });
    expect(fromBrowser.status).toBe(200);
    expect(fromBrowser.headers.get("access-control-allow-origin")).toBe(ADMIN);

    const keyed = { "idempotency-key": crypto.randomUUID() };
    const first = await app.legacy("POST", "/conductor/update_location.php", ping, keyed);
    const again = await app.legacy("POST", "/conductor/update_location.php", ping, keyed);
    expect(again.headers.get(REPLAYED_HEADER)).toBe("true");
    expect(again.body).toEqual(first.body);
  });

  it("Node cannot read are refused in Spanish too: a URL over 16 KB (431) and a request that is not HTTP (400)", async () => {
    const long = await app.legacy("GET", "/conductor/get_profile.php", { conductor_id: "1", x: "x".repeat(20_000) });
    expect(long).toMatchObject({ status: 431, body: { success: false, message: expect.stringMatching(/superan el tamaño máximo/) } });
    expect(long.headers.get("content-type")).toMatch(/^application\/json/);

    const port = Number(new URL(app.origin).port);
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect(port, "127.0.0.1", () => socket.end("ESTO NO ES HTTP\r\n\r\n"));
      let text = "";
      socket
        .on("data", (chunk) => (text += chunk))
        .on("end", () => resolve(text))
        .on("error", reject);
    });
    expect(raw).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(JSON.parse(raw.split("\r\n\r\n")[1]!)).toEqual({ success: false, message: "La petición HTTP no es válida" });
  });
});
