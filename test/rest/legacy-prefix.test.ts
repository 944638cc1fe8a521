import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.js";
import { PASSWORD, uniqueEmail } from "../support/fixtures.js";
import { createDriver, ESTADIO, LLERAS } from "../support/trips.js";

// The deployed app's files named here (lib/src/…) are in https://github.com/Braian551/pingo/tree/35be6b2751ba54667ec1437fc46cd3a8ee79fd51.

/**
 * The deployed app's development build (lib/src/core/config/app_config.dart) calls
 * http://10.0.2.2/viax/backend/<area>/<name>.php: the legacy routes under the path its PHP backend
 * was served from. With LEGACY_PATH_PREFIX=/viax/backend they answer there, as under their own path.
 */
const BASE = "/viax/backend";

let prefixed: TestApp;
let plain: TestApp;
beforeAll(async () => {
  [prefixed, plain] = await Promise.all([createTestApp({ env: { LEGACY_PATH_PREFIX: BASE } }), createTestApp()]);
});
afterAll(() => Promise.all([prefixed.close(), plain.close()]));

/** A call as package:http sends it, to a path taken as it is (the app's base URL joined to the route). */
async function call(app: TestApp, method: string, path: string, body?: Record<string, unknown>) {
  const response = await fetch(`${app.origin}${path}`, {
    method,
    headers: body ? { "content-type": "application/json; charset=utf-8" } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  const type = response.headers.get("content-type") ?? "";
  return { status: response.status, type, body: type.includes("json") ? await response.json() : await response.arrayBuffer() };
}

describe("LEGACY_PATH_PREFIX", () => {
  it("serves the app's journey under the prefix: sign-up, sign-in, a trip asked for and read, a document uploaded and shown", async () => {
    const email = uniqueEmail("dev");
    const registered = await call(prefixed, "POST", `${BASE}/auth/register.php`, {
      email,
      password: PASSWORD,
      name: "Sara",
      lastName: "Mejía",
      phone: "3001234567",
    });
    expect(registered.status, JSON.stringify(registered.body)).toBe(200);
    const login = await call(prefixed, "POST", `${BASE}/auth/login.php`, { email, password: PASSWORD });
    expect(login.body).toMatchObject({ success: true, user: { email } });
    const passenger = login.body.user.id as number;

    await createDriver(prefixed);
    const created = await call(prefixed, "POST", `${BASE}/viajes/create_trip.php`, {
      usuario_id: passenger,
      tipo_servicio: "auto",
      origen: LLERAS,
      destino: ESTADIO,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const read = await call(prefixed, "GET", `${BASE}/viajes/get_trip.php?trip_id=${created.body.trip.id}`);
    expect(read.body).toMatchObject({ success: true, trip: { id: created.body.trip.id, estado: "pendiente" } });

    // The same calls under their own path answer the same way.
    expect((await call(prefixed, "POST", "/auth/login.php", { email, password: PASSWORD })).body.user.id).toBe(passenger);

    // DocumentUploadService.uploadDocument, then getDocumentUrl: '${AppConfig.baseUrl}/$relativeUrl'.
    const driver = await createDriver(prefixed);
    const form = new FormData();
    form.append("conductor_id", String(driver.id));
    form.append("tipo_documento", "soat");
    form.append(
      "documento",
      new Blob([readFileSync(join("test", "fixtures", "documento.jpg"))], { type: "application/octet-stream" }),
      "a.jpg",
    );
    const uploaded = await fetch(`${prefixed.origin}${BASE}/conductor/upload_documents.php`, { method: "POST", body: form });
    const { url } = (await uploaded.json()) as { url: string };
    expect(url).toMatch(/^\/uploads\//);
    const shown = await call(prefixed, "GET", `${BASE}/${url}`);
    expect([shown.status, shown.type]).toEqual([200, "image/jpeg"]);
    // license_registration_screen.dart takes the prefix off the base itself: '<host>/' + '/uploads/…'.
    const joined = await call(prefixed, "GET", `/${url}`);
    expect([joined.status, joined.type]).toEqual([200, "image/jpeg"]);
  });

  it("leaves every other path as it came: an unknown route under the prefix is named as sent, health checks are not under it", async () => {
    const unknown = await call(prefixed, "GET", `${BASE}/auth/nada.php`);
    expect(unknown).toMatchObject({ status: 404, body: { success: false, message: `No existe la ruta ${BASE}/auth/nada.php` } });
    expect((await call(prefixed, "GET", `${BASE}/healthz`)).status).toBe(404);
    // A prefix that goes on past its end is not the prefix.
    expect((await call(prefixed, "POST", `${BASE}x/auth/login.php`, { email: "a@b.co", password: "x" })).status).toBe(404);
  });

  it("is off unless set: the prefixed path is then no route", async () => {
    const response = await call(plain, "POST", `${BASE}/auth/login.php`, { email: "a@b.co", password: "x" });
    expect(response).toMatchObject({ status: 404, body: { message: `No existe la ruta ${BASE}/auth/login.php` } });
  });
});
