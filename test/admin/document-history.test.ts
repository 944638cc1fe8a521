import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.js";
import { completeApplication, newAdmin, newDriver } from "../support/drivers.js";
import { post, registerUser } from "../support/fixtures.js";

/** Every photo a driver had for each document, recorded as photos are stored and replaced. */

let app: TestApp;
let admin: { id: number };
beforeAll(async () => {
  app = await createTestApp();
  admin = await newAdmin(app);
});
afterAll(() => app.close());

const PHOTO = readFileSync(join("test", "fixtures", "documento.jpg"));

/** DocumentUploadService.uploadDocument: the photo's signed link. */
async function upload(conductorId: number, tipo: string): Promise<string> {
  const form = new FormData();
  form.append("conductor_id", String(conductorId));
  form.append("tipo_documento", tipo);
  form.append("documento", new Blob([new Uint8Array(PHOTO)], { type: "application/octet-stream" }), "foto.jpg");
  const response = await app.server.fetch(new Request("http://test/conductor/upload_documents.php", { method: "POST", body: form }));
  expect(response.status).toBe(200);
  return ((await response.json()) as { url: string }).url;
}

const history = (conductorId: number, adminId = admin.id) =>
  app.legacy("GET", "/admin/get_documentos_historial.php", { admin_id: String(adminId), conductor_id: String(conductorId) });
const plain = (link: string) => link.split("?")[0]!;
const rows = (conductorId: number) => app.db.documentPhoto.findMany({ where: { conductor_id: conductorId }, orderBy: { id: "asc" } });

describe("the history of a driver's document photos", () => {
  it("records each stored photo, and the one it replaces, but not the same photo saved again", async () => {
    const driver = await newDriver(app);
    const first = await upload(driver.id, "soat");
    // The app then saves the link it got through update_vehicle: the same photo, nothing new.
    expect((await post(app, "/conductor/update_vehicle.php", { conductor_id: driver.id, foto_soat: first })).status).toBe(200);
    expect(await rows(driver.id)).toEqual([expect.objectContaining({ tipo_documento: "soat", url: plain(first), reemplazado_en: null })]);

    const second = await upload(driver.id, "soat");
    const front = await upload(driver.id, "licencia_frente");
    // A photo field changed through update_license counts too.
    expect((await post(app, "/conductor/update_license.php", { conductor_id: driver.id, imagen_reverso: front })).status).toBe(200);
    const recorded = await rows(driver.id);
    expect(recorded.map(({ tipo_documento, url, reemplazado_en }) => [tipo_documento, url, reemplazado_en !== null])).toEqual([
      ["soat", plain(first), true],
      ["soat", plain(second), false],
      ["licencia_frente", plain(front), false],
      ["licencia_reverso", plain(front), false],
    ]);
    expect(recorded[0]!.reemplazado_en).toEqual(recorded[1]!.subido_en);
    expect((await app.db.vehicle.findUniqueOrThrow({ where: { conductor_id: driver.id } })).foto_soat).toBe(plain(second));
  });

  it("answers the history newest first as pingo's ConductorHistorialSheet reads it, states following the application", async () => {
    const driver = await newDriver(app);
    await completeApplication(app, driver.id, "moto");
    const replaced = await upload(driver.id, "tecnomecanica");
    const current = await upload(driver.id, "tecnomecanica");
    expect((await post(app, "/conductor/submit_for_approval.php", { conductor_id: driver.id })).status).toBe(200);

    const response = await history(driver.id);
    expect(response.status).toBe(200);
    const { historial, total } = response.body.data;
    expect(total).toBe(historial.length);
    // The six photos the application was filled in with, then the two uploads.
    expect(total).toBe(8);
    expect(historial[0]).toEqual({
      id: expect.any(Number),
      tipo_documento: "tecnomecanica",
      ruta_archivo: expect.stringMatching(new RegExp(`^${plain(current)}\\?expira=\\d+&firma=`)),
      fecha_subida: expect.any(String),
      reemplazado_en: null,
      estado: "en_revision",
      motivo_rechazo: null,
      numero_documento: expect.stringMatching(/^RTM-/),
      fecha_vencimiento: expect.any(String),
    });
    expect(historial[1]).toMatchObject({
      tipo_documento: "tecnomecanica",
      ruta_archivo: expect.stringContaining(plain(replaced)),
      estado: "reemplazado",
    });
    // What a replaced photo's document said then was not kept.
    expect(historial[1]).toMatchObject({ numero_documento: null, fecha_vencimiento: null, reemplazado_en: expect.any(String) });
    // The one the application was filled in with, replaced by the first upload.
    expect(historial.filter((photo: { tipo_documento: string }) => photo.tipo_documento === "tecnomecanica")).toHaveLength(3);

    expect(
      (await post(app, "/admin/rechazar_conductor.php", { admin_id: admin.id, conductor_id: driver.id, motivo: "La RTM no se lee" }))
        .status,
    ).toBe(200);
    const rejected = (await history(driver.id)).body.data.historial;
    expect(rejected[0]).toMatchObject({ estado: "rechazado", motivo_rechazo: "La RTM no se lee" });
    expect(rejected[1]).toMatchObject({ estado: "reemplazado", motivo_rechazo: null });
    const vehicle = rejected.find((photo: { tipo_documento: string }) => photo.tipo_documento === "vehiculo");
    expect(vehicle).toMatchObject({ estado: "rechazado", numero_documento: expect.any(String), fecha_vencimiento: null });
  });

  it("is for the driver and administrators, and knows only drivers", async () => {
    const driver = await newDriver(app);
    await upload(driver.id, "soat");
    const passenger = await registerUser(app);
    const notAdmin = await history(driver.id, passenger.id);
    expect(notAdmin.status).toBe(403);
    // The review screen's call is the administrators': the driver sees their own photos over GraphQL.
    expect((await history(driver.id, driver.id)).status).toBe(403);
    const notDriver = await history(passenger.id);
    expect(notDriver.status).toBe(404);
    expect(notDriver.body.message).toBe(`No existe un conductor con id ${passenger.id}`);

    const QUERY = `query ($id: Int) {
      documentHistory(conductor_id: $id) { __typename ... on QueryDocumentHistorySuccess { data { tipo_documento estado } } }
    }`;
    const own = await app.graphql(QUERY, {}, driver.id);
    expect(own.data.documentHistory.data).toEqual([{ tipo_documento: "soat", estado: "pendiente" }]);
    const other = await newDriver(app);
    expect((await app.graphql(QUERY, { id: driver.id }, other.id)).data.documentHistory.__typename).toBe("ForbiddenError");
  });
});
