import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.js";
import { FixedClock } from "../support/clock.js";
import { registerUser } from "../support/fixtures.js";
import { newAdmin, newDriver } from "../support/drivers.js";

let app: TestApp;
const clock = new FixedClock("2026-03-10T15:00:00Z");
beforeAll(async () => {
  app = await createTestApp({ clock });
});
afterAll(() => app.close());

/** A GraphQL multipart request (https://github.com/jaydenseric/graphql-multipart-request-spec). */
async function uploadOverGraphQL(callerId: number, file: Buffer, tipo: string) {
  const form = new FormData();
  form.append(
    "operations",
    JSON.stringify({
      query: `mutation ($tipo: TipoDocumento!, $file: File!) {
        uploadDocument(tipo_documento: $tipo, documento: $file) {
          __typename ... on DocumentoSubido { url tipo_documento } ... on Error { message }
        }
      }`,
      variables: { tipo, file: null },
    }),
  );
  form.append("map", JSON.stringify({ 0: ["variables.file"] }));
  form.append("0", new Blob([new Uint8Array(file)]), "foto.png");
  const response = await app.server.fetch(
    new Request("http://test/graphql", { method: "POST", body: form, headers: await app.bearer(callerId) }),
  );
  return (await response.json()).data.uploadDocument;
}

describe("the driver operations over GraphQL", () => {
  it("build and submit an application, acting as the caller", async () => {
    const driver = await newDriver(app);
    const photo = await uploadOverGraphQL(driver.id, readFileSync("test/fixtures/documento.png"), "vehiculo");
    expect(photo).toMatchObject({
      __typename: "DocumentoSubido",
      tipo_documento: "vehiculo",
      url: expect.stringMatching(/^\/uploads\/.+\.png\?expira=\d+&firma=[\w-]+$/),
    });
    const refused = await uploadOverGraphQL(driver.id, readFileSync("test/fixtures/texto-renombrado.jpg"), "vehiculo");
    expect(refused).toEqual({ __typename: "ValidationError", message: "El campo 'documento' debe ser una imagen JPG o PNG" });

    const run = async (query: string, variables: Record<string, unknown> = {}) => (await app.graphql(query, variables, driver.id)).data;
    expect(
      (
        await run(
          `mutation { updateDriverProfile(input: { direccion: "Cra 1 # 2-3" }) { ... on PerfilConductor { direccion nombre_completo } } }`,
        )
      ).updateDriverProfile,
    ).toEqual({ direccion: "Cra 1 # 2-3", nombre_completo: "Ana Restrepo" });
    const vehicle = await run(
      `mutation ($input: VehicleInput!) {
        updateVehicle(input: $input) { __typename ... on Vehiculo { placa tipo foto_vehiculo } ... on Error { message } }
      }`,
      {
        input: {
          marca: "Bajaj",
          modelo: "RE",
          anio: 2023,
          placa: "mtx-999",
          color: "Verde",
          tipo: "mototaxi",
          soat_numero: "S",
          soat_vencimiento: "2027-01-01",
          tecnomecanica_numero: "T",
          tecnomecanica_vencimiento: "2027-01-01",
          tarjeta_propiedad_numero: "P",
          foto_vehiculo: photo.url,
          foto_tarjeta_propiedad: photo.url,
          foto_soat: photo.url,
          foto_tecnomecanica: photo.url,
        },
      },
    );
    const plain = photo.url.split("?")[0];
    expect(vehicle.updateVehicle).toEqual({
      __typename: "Vehiculo",
      placa: "MTX999",
      tipo: "mototaxi",
      foto_vehiculo: expect.stringMatching(`^${plain}\\?expira=`),
    });
    const wrongLicence = await run(
      `mutation { updateLicense(input: { tipo: A2 }) { __typename ... on ValidationError { field reason } } }`,
    );
    expect(wrongLicence.updateLicense).toEqual({
      __typename: "ValidationError",
      field: "tipo",
      reason: "no permite conducir 'mototaxi'; se necesita una de: B1, C1",
    });
    await run(`mutation ($input: LicenseInput!) { updateLicense(input: $input) { __typename } }`, {
      input: {
        numero: "GQL-1",
        tipo: "C1",
        fecha_emision: "2024-01-01",
        fecha_expiracion: "2029-01-01",
        imagen_frente: photo.url,
        imagen_reverso: photo.url,
      },
    });
    expect(
      (await run(`mutation { submitForApproval { __typename ... on ResultadoRevision { perfil { estado_revision } } } }`))
        .submitForApproval,
    ).toEqual({ __typename: "ResultadoRevision", perfil: { estado_revision: "en_revision" } });
    expect((await run(`{ verificationStatus { ... on PerfilConductor { aprobado estado_revision } } }`)).verificationStatus).toEqual({
      aprobado: false,
      estado_revision: "en_revision",
    });

    const admin = await newAdmin(app);
    const queue = await app.graphql(
      `{ pendingDrivers { ... on QueryPendingDriversSuccess { data { conductor_id vehiculo { placa } } } } }`,
      {},
      admin.id,
    );
    expect(queue.data.pendingDrivers.data).toContainEqual({ conductor_id: driver.id, vehiculo: { placa: "MTX999" } });
    const rejected = await app.graphql(
      `mutation ($id: Int!) {
        rejectDriver(conductor_id: $id, motivo: "Foto borrosa") { ... on ResultadoRevision { perfil { estado_revision motivo_rechazo } } }
      }`,
      { id: driver.id },
      admin.id,
    );
    expect(rejected.data.rejectDriver).toEqual({ perfil: { estado_revision: "rechazado", motivo_rechazo: "Foto borrosa" } });
  });

  it("answer earnings and statistics for the caller, or for any driver to an administrator", async () => {
    const driver = await newDriver(app);
    const passenger = await registerUser(app);
    const EARNINGS = `query ($id: Int) {
      earnings(periodo: semana, conductor_id: $id) { __typename ... on Ganancias { periodo total_viajes fecha_inicio } }
    }`;
    expect((await app.graphql(EARNINGS, {}, driver.id)).data.earnings).toEqual({
      __typename: "Ganancias",
      periodo: "semana",
      total_viajes: 0,
      fecha_inicio: "2026-03-09T05:00:00.000Z",
    });
    expect((await app.graphql(EARNINGS, { id: driver.id }, passenger.id)).data.earnings.__typename).toBe("ForbiddenError");
    const admin = await newAdmin(app);
    expect((await app.graphql(EARNINGS, { id: driver.id }, admin.id)).data.earnings.__typename).toBe("Ganancias");
    const stats = await app.graphql(`{ driverStatistics { ... on EstadisticasConductor { total_viajes horas_activo } } }`, {}, driver.id);
    expect(stats.data.driverStatistics).toEqual({ total_viajes: 0, horas_activo: 0 });
    expect((await app.graphql(`{ driverStatistics { __typename } }`, {}, passenger.id)).data.driverStatistics.__typename).toBe(
      "NotFoundError",
    );
  });

  it("manage users as an administrator", async () => {
    const admin = await newAdmin(app);
    const user = await registerUser(app);
    const updated = await app.graphql(
      `mutation ($id: Int!) {
        updateUser(user_id: $id, input: { nombre: "Renombrada", es_verificado: true }) { ... on Usuario { nombre es_verificado } }
      }`,
      { id: user.id },
      admin.id,
    );
    expect(updated.data.updateUser).toEqual({ nombre: "Renombrada", es_verificado: true });
    const suspended = await app.graphql(
      `mutation ($id: Int!) { suspendUser(user_id: $id, motivo: "Revisión") { ... on Usuario { es_activo } } }`,
      { id: user.id },
      admin.id,
    );
    expect(suspended.data.suspendUser).toEqual({ es_activo: true });
    expect((await app.legacy("POST", "/auth/login.php", { email: user.email, password: "Clave#Segura1" })).status).toBe(403);
    await app.graphql(`mutation ($id: Int!) { activateUser(user_id: $id) { __typename } }`, { id: user.id }, admin.id);
    expect((await app.legacy("POST", "/auth/login.php", { email: user.email, password: "Clave#Segura1" })).status).toBe(200);
    const deleted = await app.graphql(
      `mutation ($id: Int!) { deleteUser(user_id: $id) { ... on Eliminado { id } } }`,
      { id: user.id },
      admin.id,
    );
    expect(deleted.data.deleteUser).toEqual({ id: user.id });
  });
});
