import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.js";
import { FixedClock } from "../support/clock.js";
import { completeApplication, newAdmin, newDriver } from "../support/drivers.js";
import { post, registerUser } from "../support/fixtures.js";

const TTL_S = 60;
const EXPIRED = "El enlace venció o no es válido; pide el documento de nuevo";
const NOT_YOURS = (field: string) => `El campo '${field}' debe ser un documento que subiste tú`;
const clock = new FixedClock("2026-03-10T15:00:00Z");
let app: TestApp;
beforeAll(async () => {
  app = await createTestApp({ clock, env: { UPLOAD_URL_TTL_S: String(TTL_S) } });
});
afterAll(() => app.close());

const fixture = (name: string) => readFileSync(join("test", "fixtures", name));

/** Uploads a fixture as the driver and returns the signed URL the upload answers with. */
async function upload(driverId: number, tipo = "licencia_frente", file = "documento.png"): Promise<string> {
  const form = new FormData();
  form.append("conductor_id", String(driverId));
  form.append("tipo_documento", tipo);
  form.append("documento", new Blob([new Uint8Array(fixture(file))]), file);
  const response = await app.server.fetch(new Request("http://test/conductor/upload_documents.php", { method: "POST", body: form }));
  const body = await response.json();
  expect(response.status, JSON.stringify(body)).toBe(200);
  expect(body.url).toMatch(new RegExp(`^/uploads/conductores/${driverId}/${tipo}-[0-9a-f-]{36}\\.(png|jpg)\\?expira=\\d+&firma=[\\w-]+$`));
  return body.url;
}

const open = (path: string, headers: Record<string, string> = {}) => app.server.fetch(new Request(`http://test${path}`, { headers }));
const plain = (url: string) => url.split("?")[0]!;
const params = (url: string) => new URL(url, "http://test").searchParams;
const expiraOf = (url: string) => Number(params(url).get("expira"));
const signedLink = (path: string) => expect.stringMatching(new RegExp(`^${path.replace(/[.?]/g, "\\$&")}\\?expira=\\d+&firma=[\\w-]+$`));

/** Expects a refusal: the status and the JSON body the uploads route answers with. */
async function expectRefused(path: string, status: number, headers: Record<string, string> = {}, message?: string) {
  const response = await open(path, headers);
  expect(response.status, path).toBe(status);
  expect(await response.json()).toEqual({ success: false, message: message ?? expect.any(String) });
}

async function profile(driverId: number) {
  const response = await app.legacy("GET", "/conductor/get_profile.php", { conductor_id: String(driverId) });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.profile;
}

describe("document photos are private", () => {
  it("serve a signed link to anyone, a plain path only to the owner or an administrator", async () => {
    const [driver, other, passenger, admin] = [await newDriver(app), await newDriver(app), await registerUser(app), await newAdmin(app)];
    const url = await upload(driver.id, "soat", "documento.jpg");
    const served = await open(url);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/jpeg");
    expect(served.headers.get("cache-control")).toMatch(/^private\b/);
    expect(served.headers.get("x-content-type-options")).toBe("nosniff");
    expect(Buffer.from(await served.arrayBuffer())).toEqual(fixture("documento.jpg"));

    const path = plain(url);
    await expectRefused(path, 401);
    await expectRefused(path, 403, await app.bearer(other.id));
    await expectRefused(path, 403, await app.bearer(passenger.id));
    for (const reader of [driver.id, admin.id]) {
      const response = await open(path, await app.bearer(reader));
      expect(response.status, `reader ${reader}`).toBe(200);
      expect(Buffer.from(await response.arrayBuffer())).toEqual(fixture("documento.jpg"));
    }
  });

  it("stop opening a signed link once it expires, or when it was tampered with", async () => {
    const driver = await newDriver(app);
    const url = await upload(driver.id);
    expect(expiraOf(url)).toBe(Math.floor(clock.now().getTime() / 1000) + TTL_S);
    expect((await open(url)).status).toBe(200);

    const firma = params(url).get("firma")!;
    const alteredFirma = `${firma[0] === "A" ? "B" : "A"}${firma.slice(1)}`;
    await expectRefused(`${plain(url)}?expira=${expiraOf(url)}&firma=${alteredFirma}`, 403, {}, EXPIRED);
    await expectRefused(`${plain(url)}?expira=${expiraOf(url) + 3600}&firma=${firma}`, 403, {}, EXPIRED);
    const sibling = await upload(driver.id, "licencia_reverso");
    await expectRefused(`${plain(sibling)}?${params(url)}`, 403, {}, EXPIRED);

    clock.advance((TTL_S + 1) * 1000);
    await expectRefused(url, 403, {}, EXPIRED);
    // An expired link is refused even to its owner: the signature is checked, not the token.
    await expectRefused(url, 403, await app.bearer(driver.id), EXPIRED);
  });

  it("are shown with a fresh signed link in every response", async () => {
    const driver = await newDriver(app);
    const url = await upload(driver.id);
    expect((await post(app, "/conductor/update_license.php", { conductor_id: driver.id, imagen_frente: url })).status).toBe(200);

    const first = (await profile(driver.id)).licencia.imagen_frente;
    clock.advance((TTL_S / 2) * 1000);
    const second = (await profile(driver.id)).licencia.imagen_frente;
    expect(first).toEqual(signedLink(plain(url)));
    expect(second).toEqual(signedLink(plain(url)));
    expect(expiraOf(second) - expiraOf(first)).toBe(TTL_S / 2);

    clock.advance((TTL_S / 2 + 1) * 1000);
    await expectRefused(first, 403, {}, EXPIRED);
    expect((await open(second)).status).toBe(200);
  });

  it("are stored as plain links, and plain links stored before signing are shown signed", async () => {
    const driver = await newDriver(app);
    const front = await upload(driver.id);
    const car = await upload(driver.id, "vehiculo");
    const license = await post(app, "/conductor/update_license.php", { conductor_id: driver.id, imagen_frente: front });
    expect(license.status, JSON.stringify(license.body)).toBe(200);
    expect(license.body.license.imagen_frente).toEqual(signedLink(plain(front)));
    const vehicle = await post(app, "/conductor/update_vehicle.php", { conductor_id: driver.id, foto_vehiculo: car });
    expect(vehicle.status, JSON.stringify(vehicle.body)).toBe(200);
    expect((await app.db.license.findUnique({ where: { conductor_id: driver.id } }))?.imagen_frente).toBe(plain(front));
    expect((await app.db.vehicle.findUnique({ where: { conductor_id: driver.id } }))?.foto_vehiculo).toBe(plain(car));

    const old = plain(await upload(driver.id, "soat"));
    await app.db.vehicle.update({ where: { conductor_id: driver.id }, data: { foto_soat: old } });
    const shown = (await profile(driver.id)).vehiculo.foto_soat;
    expect(shown).toEqual(signedLink(old));
    expect((await open(shown)).status).toBe(200);
    expect((await open(old, await app.bearer(driver.id))).status).toBe(200);
    await expectRefused(old, 401);
  });

  it("refuse photo fields that point at another driver's upload", async () => {
    const [owner, thief] = [await newDriver(app), await newDriver(app)];
    const url = await upload(owner.id);
    for (const imagen_frente of [url, plain(url)]) {
      const license = await post(app, "/conductor/update_license.php", { conductor_id: thief.id, imagen_frente });
      expect(license.status).toBe(400);
      expect(license.body).toEqual({ success: false, message: NOT_YOURS("imagen_frente") });
    }
    const vehicle = await post(app, "/conductor/update_vehicle.php", { conductor_id: thief.id, foto_soat: url });
    expect(vehicle.status).toBe(400);
    expect(vehicle.body).toEqual({ success: false, message: NOT_YOURS("foto_soat") });
    expect(await app.db.license.findUnique({ where: { conductor_id: thief.id } })).toBeNull();
    expect(await app.db.vehicle.findUnique({ where: { conductor_id: thief.id } })).toBeNull();
  });

  it("are shown signed to administrators over GraphQL, and not shown to other drivers", async () => {
    const [driver, other, admin] = [await newDriver(app), await newDriver(app), await newAdmin(app)];
    await completeApplication(app, driver.id);
    const front = await upload(driver.id);
    const car = await upload(driver.id, "vehiculo", "documento.jpg");
    expect((await post(app, "/conductor/update_license.php", { conductor_id: driver.id, imagen_frente: front })).status).toBe(200);
    expect((await post(app, "/conductor/update_vehicle.php", { conductor_id: driver.id, foto_vehiculo: car })).status).toBe(200);
    expect((await post(app, "/conductor/submit_for_approval.php", { conductor_id: driver.id })).status).toBe(200);

    const photos = "licencia { imagen_frente } vehiculo { foto_vehiculo }";
    const pending = await app.graphql(
      `{ pendingDrivers { __typename ... on QueryPendingDriversSuccess { data { conductor_id ${photos} } } } }`,
      {},
      admin.id,
    );
    const entry = pending.data.pendingDrivers.data.find((d: { conductor_id: number }) => d.conductor_id === driver.id);
    const read = await app.graphql(
      `query ($id: Int) { driverProfile(conductor_id: $id) { __typename ... on PerfilConductor { ${photos} } ... on Error { message } } }`,
      { id: driver.id },
      admin.id,
    );
    expect(read.data.driverProfile.__typename).toBe("PerfilConductor");
    for (const shown of [entry, read.data.driverProfile]) {
      expect(shown.licencia.imagen_frente).toEqual(signedLink(plain(front)));
      expect(shown.vehiculo.foto_vehiculo).toEqual(signedLink(plain(car)));
      expect((await open(shown.licencia.imagen_frente)).status).toBe(200);
      expect((await open(shown.vehiculo.foto_vehiculo)).headers.get("content-type")).toBe("image/jpeg");
    }

    const snoop = await app.graphql(
      `query ($id: Int) { driverProfile(conductor_id: $id) { __typename ... on PerfilConductor { ${photos} } ... on Error { message } } }`,
      { id: driver.id },
      other.id,
    );
    expect(snoop.data.driverProfile).toEqual({ __typename: "ForbiddenError", message: expect.any(String) });
    expect(JSON.stringify(snoop)).not.toContain("/uploads/");
  });
});
