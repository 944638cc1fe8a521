import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.js";
import { newAdmin, newDriver } from "../support/drivers.js";

// The deployed app's files named here (lib/src/…) are in https://github.com/Braian551/pingo/tree/35be6b2751ba54667ec1437fc46cd3a8ee79fd51.

const LIMIT = 4096;
let app: TestApp;
beforeAll(async () => {
  app = await createTestApp({ env: { UPLOAD_MAX_BYTES: String(LIMIT) } });
});
afterAll(() => app.close());

const fixture = (name: string) => readFileSync(join("test", "fixtures", name));

function upload(fields: Record<string, string | Blob>, name = "documento.jpg") {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) {
    if (value instanceof Blob) form.append(key, value, name);
    else form.append(key, value);
  }
  return app.server.fetch(new Request("http://test/conductor/upload_documents.php", { method: "POST", body: form }));
}

describe("POST /conductor/upload_documents.php", () => {
  it.each([
    ["documento.png", "image/png", "png"],
    ["documento.jpg", "image/jpeg", "jpg"],
  ])("stores a real %s and serves it back at the URL it returns", async (file, type, extension) => {
    const driver = await newDriver(app);
    const bytes = fixture(file);
    const response = await upload(
      { conductor_id: String(driver.id), tipo_documento: "soat", documento: new Blob([bytes]) },
      "sin-extension",
    );
    expect(response.status).toBe(200);
    const body = await response.json();
    const url = expect.stringMatching(
      new RegExp(`^/uploads/conductores/${driver.id}/soat-[0-9a-f-]{36}\\.${extension}\\?expira=\\d+&firma=[\\w-]+$`),
    );
    // The url at the top, and under data for pingo's DocumentUploadService
    // (lib/src/features/conductor/services/document_upload_service.dart).
    expect(body).toEqual({ success: true, message: "Documento recibido", url, file_url: url, data: { tipo_documento: "soat", url } });
    expect(body.data.url).toBe(body.url);
    const served = await app.server.fetch(new Request(`http://test${body.url}`));
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe(type);
    expect(served.headers.get("cache-control")).toMatch(/^private\b/);
    expect(served.headers.get("x-content-type-options")).toBe("nosniff");
    expect(Buffer.from(await served.arrayBuffer())).toEqual(bytes);
  });

  // lib/src/features/conductor/providers/conductor_profile_provider.dart
  it("keeps the photo as the document's own, where pingo's profile screen reloads it", async () => {
    const driver = await newDriver(app);
    const sent = async (tipo_documento: string) =>
      (await (await upload({ conductor_id: String(driver.id), tipo_documento, documento: new Blob([fixture("documento.jpg")]) })).json())
        .url as string;
    const soat = await sent("soat");
    const front = await sent("licencia");
    const { profile } = (await app.legacy("GET", "/conductor/get_profile.php", { conductor_id: String(driver.id) })).body;
    const plain = (link: string) => link.split("?")[0];
    expect(plain(profile.vehiculo.foto_soat)).toBe(plain(soat));
    expect(plain(profile.vehiculo.soat_foto_url)).toBe(plain(soat));
    expect(plain(profile.licencia.imagen_frente)).toBe(plain(front));
    expect(plain(profile.licencia.licencia_foto_url)).toBe(plain(front));
    expect(profile.licencia.imagen_reverso).toBeNull();
  });

  it("refuses a text file named like an image", async () => {
    const driver = await newDriver(app);
    const response = await upload({
      conductor_id: String(driver.id),
      tipo_documento: "vehiculo",
      documento: new Blob([fixture("texto-renombrado.jpg")]),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ success: false, message: "El campo 'documento' debe ser una imagen JPG o PNG" });
  });

  it("refuses a file over the size limit with 413, whatever its type", async () => {
    const driver = await newDriver(app);
    const big = Buffer.concat([fixture("documento.png"), Buffer.alloc(LIMIT)]);
    const response = await upload({ conductor_id: String(driver.id), tipo_documento: "soat", documento: new Blob([big]) });
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ success: false, message: `El archivo supera el tamaño máximo de ${LIMIT / 1024 / 1024} MB` });
    const huge = await upload({ conductor_id: String(driver.id), tipo_documento: "soat", documento: new Blob([Buffer.alloc(LIMIT * 3)]) });
    expect(huge.status).toBe(413);
  });

  it.each([
    [{ tipo_documento: "soat" }, 400, "El campo 'documento' es obligatorio"],
    [{ tipo_documento: "soat", documento: "no soy un archivo" }, 400, "El campo 'documento' debe ser un archivo"],
    [
      { tipo_documento: "pasaporte", documento: "file" },
      400,
      "El campo 'tipo_documento' debe ser uno de: licencia_frente, licencia_reverso, vehiculo, tarjeta_propiedad, soat, tecnomecanica",
    ],
    [{ documento: "file" }, 400, "El campo 'tipo_documento' es obligatorio"],
  ])("answers %j with %i", async (fields, status, message) => {
    const driver = await newDriver(app);
    const form = Object.fromEntries(
      Object.entries(fields).map(([key, value]) => [key, value === "file" ? new Blob([fixture("documento.png")]) : value]),
    );
    const response = await upload({ conductor_id: String(driver.id), ...form });
    expect(response.status).toBe(status);
    expect(await response.json()).toEqual({ success: false, message });
  });

  it("answers 404 for an unknown driver and 400 for a body that is not multipart", async () => {
    const unknown = await upload({ conductor_id: "999999", tipo_documento: "soat", documento: new Blob([fixture("documento.png")]) });
    expect(unknown.status).toBe(404);
    const json = await app.legacy("POST", "/conductor/upload_documents.php", { conductor_id: 1, tipo_documento: "soat" });
    expect(json.status).toBe(400);
    expect(json.body.message).toBe("La petición debe enviarse como multipart/form-data");
  });

  it("serves nothing outside the upload folder, even to an administrator", async () => {
    const admin = await newAdmin(app);
    for (const path of [
      "/uploads/../../package.json",
      "/uploads/%2e%2e/%2e%2e/package.json",
      "/uploads/nada.png",
      "/uploads/conductores/",
    ]) {
      expect((await app.server.fetch(new Request(`http://test${path}`, { headers: await app.bearer(admin.id) }))).status, path).toBe(404);
    }
  });
});
