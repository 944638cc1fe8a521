import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, SIGN_IN_REQUIRED, type TestApp } from "../support/app.js";
import { FixedClock } from "../support/clock.js";
import { registerUser, post } from "../support/fixtures.js";
import { completeApplication, newAdmin, newDriver, submittedDriver } from "../support/drivers.js";
import { connect, subscribe } from "../support/ws.js";

let app: TestApp;
let port: number;
const clock = new FixedClock("2026-03-10T15:00:00Z");
beforeAll(async () => {
  app = await createTestApp({ clock });
  ({ port } = await app.server.start(0, "127.0.0.1"));
});
afterAll(() => app.close());

const status = async (id: number) => (await app.legacy("GET", "/conductor/verification_status.php", { conductor_id: String(id) })).body;
const pending = async (adminId: number) => await app.legacy("GET", "/admin/pending_drivers.php", { admin_id: String(adminId) });

describe("POST /conductor/submit_for_approval.php", () => {
  it("lists exactly what is missing", async () => {
    const driver = await newDriver(app);
    const response = await post(app, "/conductor/submit_for_approval.php", { conductor_id: driver.id });
    expect(response.status).toBe(400);
    expect(response.body.message).toBe(
      "Faltan datos para enviar a revisión: perfil.direccion, licencia.numero, licencia.tipo, licencia.fecha_emision, " +
        "licencia.fecha_expiracion, licencia.imagen_frente, licencia.imagen_reverso, vehiculo.marca, vehiculo.modelo, vehiculo.anio, " +
        "vehiculo.placa, vehiculo.color, vehiculo.tipo, vehiculo.soat_numero, vehiculo.soat_vencimiento, vehiculo.tecnomecanica_numero, " +
        "vehiculo.tecnomecanica_vencimiento, vehiculo.tarjeta_propiedad_numero, vehiculo.foto_vehiculo, vehiculo.foto_tarjeta_propiedad, " +
        "vehiculo.foto_soat, vehiculo.foto_tecnomecanica",
    );
    await completeApplication(app, driver.id);
    await app.db.vehicle.update({ where: { conductor_id: driver.id }, data: { foto_soat: null, color: null } });
    const almost = await post(app, "/conductor/submit_for_approval.php", { conductor_id: driver.id });
    expect(almost.body.message).toBe("Faltan datos para enviar a revisión: vehiculo.color, vehiculo.foto_soat");
    expect((await status(driver.id)).status).toMatchObject({ estado_revision: "pendiente" });
  });

  it("moves a complete application to review and into the pending list", async () => {
    const admin = await newAdmin(app);
    const driver = await newDriver(app);
    await completeApplication(app, driver.id, "moto");
    const response = await post(app, "/conductor/submit_for_approval.php", { conductor_id: driver.id });
    expect(response.status).toBe(200);
    expect(response.body.message).toEqual(expect.any(String));
    expect((await status(driver.id)).status).toEqual({
      aprobado: false,
      estado_revision: "en_revision",
      motivo_rechazo: null,
      fecha_aprobacion: null,
      fecha_solicitud: clock.now().toISOString(),
    });
    const list = await pending(admin.id);
    expect(list.status).toBe(200);
    const entry = list.body.drivers.find((d: { id: number }) => d.id === driver.id);
    expect(entry).toEqual({
      id: driver.id,
      nombre_completo: "Carla Gómez",
      email: driver.email,
      telefono: "3105551234",
      fecha_solicitud: clock.now().toISOString(),
      aprobado: false,
      licencia: { numero: expect.stringMatching(/^LIC-/), tipo: "A2", fecha_expiracion: expect.any(String) },
      vehiculo: { marca: "Renault", modelo: "Logan", placa: expect.any(String), tipo: "moto" },
    });
    // Sending it again (the app has two ways to send) is answered as done, and changes nothing.
    const before = await app.db.driverProfile.findUniqueOrThrow({ where: { conductor_id: driver.id } });
    const again = await post(app, "/conductor/submit_verification.php", { conductor_id: driver.id });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ success: true, estado_verificacion: "en_revision" });
    expect(again.body.message).toBe("Tu perfil ya estaba en revisión; no hubo que enviarlo de nuevo");
    expect(await app.db.driverProfile.findUniqueOrThrow({ where: { conductor_id: driver.id } })).toEqual(before);
  });

  it("refuses an application with an expired document, naming it", async () => {
    const driver = await newDriver(app);
    await completeApplication(app, driver.id);
    await app.db.vehicle.update({
      where: { conductor_id: driver.id },
      // As the app stores a date: the end of that day in Bogotá.
      data: { tecnomecanica_vencimiento: new Date("2026-03-01T23:59:59.999-05:00") },
    });
    const response = await post(app, "/conductor/submit_for_approval.php", { conductor_id: driver.id });
    expect(response.status).toBe(400);
    expect(response.body.message).toBe("La revisión técnico-mecánica está vencida desde 2026-03-01");
  });
});

describe("approval by an administrator", () => {
  it("approves a submitted driver, dates it, notifies them, and takes them off the pending list", async () => {
    const admin = await newAdmin(app);
    const driver = await submittedDriver(app);
    const client = await connect(port, await app.bearer(driver.id));
    const notices = await subscribe(client, `subscription { notifications { tipo titulo mensaje } }`);
    clock.advance(3_600_000);
    const response = await post(app, "/admin/aprobar_conductor.php", { conductor_id: driver.id, admin_id: admin.id });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, message: "Conductor aprobado" });
    expect((await status(driver.id)).status).toMatchObject({
      aprobado: true,
      estado_revision: "aprobado",
      fecha_aprobacion: clock.now().toISOString(),
    });
    expect((await notices.next()).notifications).toMatchObject({ tipo: "conductor_aprobado" });
    expect((await pending(admin.id)).body.drivers.some((d: { id: number }) => d.id === driver.id)).toBe(false);
    // Approved, the driver may go online.
    const online = await post(app, "/conductor/update_location.php", {
      conductor_id: driver.id,
      latitud: 6.2,
      longitud: -75.57,
      disponibilidad: 1,
    });
    expect(online.status).toBe(200);
    await client.dispose();
  });

  it("rejects with a reason the driver is told; the driver fixes and resubmits", async () => {
    const driver = await submittedDriver(app);
    const missing = await post(app, "/admin/rechazar_conductor.php", { conductor_id: driver.id });
    expect(missing.status).toBe(400);
    expect(missing.body.message).toBe("El campo 'motivo' es obligatorio");
    const response = await post(app, "/admin/rechazar_conductor.php", { conductor_id: driver.id, motivo: "La foto del SOAT no se lee" });
    expect(response.status).toBe(200);
    expect((await status(driver.id)).status).toMatchObject({
      aprobado: false,
      estado_revision: "rechazado",
      motivo_rechazo: "La foto del SOAT no se lee",
    });
    const { data } = await app.graphql(`{ notifications { ... on QueryNotificationsSuccess { data { tipo mensaje } } } }`, {}, driver.id);
    expect(data.notifications.data[0]).toEqual({
      tipo: "conductor_rechazado",
      mensaje: "Tu solicitud fue rechazada: La foto del SOAT no se lee. Corrige los datos y envíala de nuevo.",
    });
    await post(app, "/conductor/update_vehicle.php", { conductor_id: driver.id, foto_soat: "/uploads/nueva.jpg" });
    expect((await post(app, "/conductor/submit_for_approval.php", { conductor_id: driver.id })).status).toBe(200);
    expect((await status(driver.id)).status).toMatchObject({ estado_revision: "en_revision", motivo_rechazo: null });
    expect((await post(app, "/admin/aprobar_conductor.php", { conductor_id: driver.id })).status).toBe(200);
  });

  it("only reviews submitted applications with documents in force", async () => {
    const notSubmitted = await newDriver(app);
    const response = await post(app, "/admin/aprobar_conductor.php", { conductor_id: notSubmitted.id });
    expect(response.status).toBe(400);
    expect(response.body.message).toBe("El conductor no tiene una solicitud en revisión (estado: pendiente)");
    const expiring = await submittedDriver(app);
    await app.db.vehicle.update({
      where: { conductor_id: expiring.id },
      data: { soat_vencimiento: new Date("2026-03-09T23:59:59.999-05:00") },
    });
    const expired = await post(app, "/admin/aprobar_conductor.php", { conductor_id: expiring.id });
    expect(expired.status).toBe(400);
    expect(expired.body.message).toBe("El SOAT está vencido desde 2026-03-09");
    expect((await post(app, "/admin/aprobar_conductor.php", { conductor_id: 987654 })).status).toBe(404);
  });

  it("answers 403 to an admin_id that is not an administrator", async () => {
    const driver = await submittedDriver(app);
    const passenger = await registerUser(app);
    for (const [path, body] of [
      ["/admin/aprobar_conductor.php", { conductor_id: driver.id, admin_id: passenger.id }],
      ["/admin/rechazar_conductor.php", { conductor_id: driver.id, admin_id: passenger.id, motivo: "x" }],
    ] as const) {
      const response = await post(app, path, body);
      expect(response.status).toBe(403);
      expect(response.body.message).toBe("Esta operación es solo para administradores");
    }
    const list = await app.legacy("GET", "/admin/pending_drivers.php", { admin_id: String(passenger.id) });
    expect(list.status).toBe(403);
    expect((await app.legacy("GET", "/admin/pending_drivers.php", {})).status).toBe(400);
  });

  it("over GraphQL, needs an identified administrator", async () => {
    const driver = await submittedDriver(app);
    const APPROVE = `mutation ($id: Int!) { approveDriver(conductor_id: $id) { __typename ... on ResultadoRevision { perfil { aprobado } } } }`;
    expect(await app.graphql(APPROVE, { id: driver.id })).toMatchObject(SIGN_IN_REQUIRED);
    expect((await app.graphql(APPROVE, { id: driver.id }, driver.id)).data.approveDriver.__typename).toBe("ForbiddenError");
    const admin = await newAdmin(app);
    expect((await app.graphql(APPROVE, { id: driver.id }, admin.id)).data.approveDriver).toEqual({
      __typename: "ResultadoRevision",
      perfil: { aprobado: true },
    });
  });
});
