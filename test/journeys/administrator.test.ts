import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.js";
import { submittedDriver } from "../support/drivers.js";
import { PASSWORD, registerUser } from "../support/fixtures.js";
import { tripIn } from "../support/trips.js";
import { dartGet, dartPost, double, ok } from "./dart.js";

// The deployed app's files named here (lib/src/…) are in https://github.com/Braian551/pingo/tree/35be6b2751ba54667ec1437fc46cd3a8ee79fd51.

/**
 * An administrator's day in the deployed app (Braian551/pingo, lib/src/), screen after screen, with
 * the requests those screens send (package:http: query values as strings, JSON ints, the headers
 * each call sets) and the fields they read. The platform has a completed trip, a driver online,
 * drivers waiting for review and a passenger when the administrator signs in.
 */

const ADMIN_EMAIL = "admin.viax@example.com";
/** What AdminService sets on every call, GETs included (global/services/admin/admin_service.dart). */
const ADMIN_HEADERS = { "content-type": "application/json", accept: "application/json" };

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp({ env: { ADMIN_EMAIL, ADMIN_PASSWORD: PASSWORD } });
});
afterAll(() => app.close());

/** AdminService.updateUser: http.put with jsonEncode of ints and strings. */
const dartPut = (path: string, body: Record<string, number | string>) =>
  app.legacy("PUT", path, JSON.stringify(body), { ...ADMIN_HEADERS, "content-type": "application/json; charset=utf-8" });

/** DocumentUploadService.uploadDocument (features/conductor/services/document_upload_service.dart): multipart, no headers. */
async function driverUploads(conductorId: number, tipo: string) {
  const form = new FormData();
  form.append("conductor_id", conductorId.toString());
  form.append("tipo_documento", tipo);
  const photo = readFileSync(join("test", "fixtures", "documento.jpg"));
  form.append("documento", new Blob([new Uint8Array(photo)], { type: "application/octet-stream" }), "image_picker_7C1D.jpg");
  const response = await app.server.fetch(new Request("http://test/conductor/upload_documents.php", { method: "POST", body: form }));
  expect(response.status).toBe(200);
}

/**
 * _EditPricingDialogState._saveChanges (pricing_management_screen.dart:560-639): each field from
 * its controller, prefilled with the card's value as text (a missing maximum as '' or '0'), parsed
 * back with double.parse (int.parse for the waiting minutes); tarifa_maxima and notas only when not empty.
 */
const DOUBLES = [
  "tarifa_base",
  "tarifa_minima",
  "costo_por_km",
  "costo_por_minuto",
  "recargo_hora_pico",
  "recargo_nocturno",
  "recargo_festivo",
  "descuento_distancia_larga",
  "umbral_km_descuento",
  "comision_plataforma",
  "comision_metodo_pago",
  "distancia_minima",
  "distancia_maxima",
  "costo_tiempo_espera",
];
const HOURS = [
  "hora_pico_inicio_manana",
  "hora_pico_fin_manana",
  "hora_pico_inicio_tarde",
  "hora_pico_fin_tarde",
  "hora_nocturna_inicio",
  "hora_nocturna_fin",
];

function dialogSave(config: Record<string, any>, typed: Record<string, string> = {}) {
  const text = (key: string, empty = "0") => typed[key] ?? (config[key] == null ? empty : String(config[key]));
  const body: Record<string, ReturnType<typeof double> | number | string> = { id: config.id };
  for (const key of DOUBLES) body[key] = double(Number(text(key)));
  if (text("tarifa_maxima", "") !== "") body.tarifa_maxima = double(Number(text("tarifa_maxima")));
  for (const key of HOURS) body[key] = text(key, "");
  body.tiempo_espera_gratis = Number.parseInt(text("tiempo_espera_gratis"), 10);
  if (text("notas", "") !== "") body.notas = text("notas", "");
  return body;
}

describe("an administrator's day", () => {
  let adminUser: Record<string, any>;
  let adminId: number;
  let trip: { precio_final: number };
  let passenger: { id: number };
  let toApprove: { id: number };
  let toReject: { id: number };

  beforeAll(async () => {
    // The platform before the administrator signs in: a completed trip (its driver is back online), two applications, a passenger.
    const done = await tripIn(app, "completado");
    trip = (await app.db.trip.findUniqueOrThrow({ where: { id: done.trip.id } })) as { precio_final: number };
    toApprove = await submittedDriver(app, "moto");
    toReject = await submittedDriver(app, "auto");
    passenger = await registerUser(app);
  });

  it("login_screen.dart:78-105: signs in and, as data.user.tipo_usuario is administrador, opens the admin home", async () => {
    // UserService.login (global/services/auth/user_service.dart:373-390).
    const response = await dartPost(
      app,
      "/auth/login.php",
      { email: ADMIN_EMAIL, password: PASSWORD, device_uuid: "c0a8f1d2-admin-device" },
      { accept: "application/json" },
    );
    const body = ok(response);
    adminUser = body.data.user;
    expect(adminUser).toMatchObject({ tipo_usuario: "administrador", email: ADMIN_EMAIL, nombre: "Administrador" });
    // Every tab: int.tryParse(widget.adminUser['id']?.toString() ?? '0').
    adminId = Number.parseInt(String(adminUser.id), 10);
    expect(adminId).toBeGreaterThan(0);
  });

  it("admin_dashboard_tab.dart:36-71, 270-333: the dashboard's cards show what the platform holds", async () => {
    // AdminService.getDashboardStats (admin_service.dart:9-63): queryParameters {'admin_id': adminId.toString()}.
    const body = ok(await dartGet(app, "/admin/dashboard_stats.php", { admin_id: adminId.toString() }, ADMIN_HEADERS));
    const data = body.data;
    expect(data.admin).toEqual({
      id: adminId,
      tipo_usuario: "administrador",
      nombre: "Administrador",
      email: ADMIN_EMAIL,
      telefono: "0000000",
    });
    // The administrator, the trip's passenger and driver, the two applicants and the other passenger.
    expect(data.usuarios).toEqual({
      total_usuarios: 6,
      total_clientes: 2,
      total_conductores: 3,
      total_administradores: 1,
      total_empresas: 0,
      usuarios_activos: 6,
      registros_hoy: 6,
      registros_mes: 6,
    });
    expect(data.solicitudes).toEqual({ total_solicitudes: 1, completadas: 1, canceladas: 0, en_proceso: 0, solicitudes_hoy: 1 });
    expect(data.viajes_hoy_por_estado).toMatchObject({ completada: 1, pendiente: 0, cancelada: 0 });
    // The trip's fare, and the 15 % the platform keeps.
    expect(trip.precio_final).toBe(20000);
    expect(data.ingresos).toEqual({
      ingresos_totales: 20000,
      ingresos_hoy: 20000,
      ingresos_mes: 20000,
      comision_total: 3000,
      comision_hoy: 3000,
      comision_mes: 3000,
      ganancia_conductores_total: 17000,
      ganancia_conductores_hoy: 17000,
      ganancia_conductores_mes: 17000,
    });
    // The trip's driver is back online and free; the applicants are not online.
    expect(data.conductores).toMatchObject({ en_linea: 1, disponibles: 1, en_viaje: 0, pendientes_revision: 2, aprobados: 1 });
    expect(data.conductores.por_tipo_vehiculo).toContainEqual({ tipo_vehiculo: "auto", en_linea: 1, disponibles: 1, en_viaje: 0 });
    // l.333: the "Reportes" card; the platform takes no reports about users.
    expect(data.reportes.reportes_pendientes).toBe(0);
    expect(data.actividades_recientes).toEqual([]);
  });

  it("statistics_screen.dart:72-90, 320-679: the statistics tab reads the same call's users, trips and 7 days of sign-ups", async () => {
    const body = ok(await dartGet(app, "/admin/dashboard_stats.php", { admin_id: adminId.toString() }, ADMIN_HEADERS));
    const { registros_ultimos_7_dias: days, usuarios, solicitudes } = body.data;
    expect(days).toHaveLength(7);
    // l.411: fecha split on '-' and shown as day/month; l.490: int.tryParse(cantidad.toString()).
    for (const day of days) expect(day.fecha).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(days.at(-1).cantidad).toBe(6);
    expect(days.slice(0, 6).every((day: { cantidad: number }) => day.cantidad === 0)).toBe(true);
    expect([usuarios.total_usuarios, usuarios.total_clientes, usuarios.total_conductores]).toEqual([6, 2, 3]);
    expect([solicitudes.completadas, solicitudes.canceladas, solicitudes.en_proceso]).toEqual([1, 0, 0]);
  });

  it("users_management_screen.dart:55-90, 920-945: lists users, deactivates a passenger and activates them again", async () => {
    // AdminService.getUsers (admin_service.dart:66-142): page '1', per_page '20'.
    const list = ok(
      await dartGet(app, "/admin/user_management.php", { admin_id: adminId.toString(), page: "1", per_page: "20" }, ADMIN_HEADERS),
    );
    const row = list.data.usuarios.find((user: { id: number }) => user.id === passenger.id);
    // l.512: es_activo == 1, an int compare.
    expect(row).toMatchObject({ tipo_usuario: "cliente", es_activo: 1 });
    // AdminService.updateUser (admin_service.dart:145-187): {admin_id, user_id, es_activo: 1|0} as JSON ints.
    expect(ok(await dartPut("/admin/user_management.php", { admin_id: adminId, user_id: passenger.id, es_activo: 0 })).message).toBe(
      "Usuario actualizado",
    );
    const after = ok(
      await dartGet(app, "/admin/user_management.php", { admin_id: adminId.toString(), page: "1", per_page: "20" }, ADMIN_HEADERS),
    );
    expect(after.data.usuarios.find((user: { id: number }) => user.id === passenger.id).es_activo).toBe(0);
    ok(await dartPut("/admin/user_management.php", { admin_id: adminId, user_id: passenger.id, es_activo: 1 }));
  });

  it("conductores_documentos_screen.dart:48-71: the documents queue shows both applications in review", async () => {
    // AdminService.getConductoresDocumentos (admin_service.dart:345-407).
    const body = ok(
      await dartGet(
        app,
        "/admin/get_conductores_documentos.php",
        { admin_id: adminId.toString(), page: "1", per_page: "20" },
        ADMIN_HEADERS,
      ),
    );
    const waiting = body.data.conductores.filter((driver: { estado_verificacion: string }) => driver.estado_verificacion === "en_revision");
    // conductor_actions.dart:26: usuario_id goes on as an int.
    expect(waiting.map((driver: { usuario_id: number }) => driver.usuario_id).sort()).toEqual([toApprove.id, toReject.id].sort());
    expect(body.data.estadisticas).toMatchObject({ total_conductores: 3, pendientes_verificacion: 2, aprobados: 1 });
  });

  it("conductor_actions.dart:101-154: after the driver replaces a photo, the history sheet shows it and the one it replaced", async () => {
    await driverUploads(toApprove.id, "soat");
    await driverUploads(toApprove.id, "soat");
    // AdminService.getDocumentosHistorial (admin_service.dart:474-519): conductor_id as a string.
    const body = ok(
      await dartGet(
        app,
        "/admin/get_documentos_historial.php",
        { admin_id: adminId.toString(), conductor_id: toApprove.id.toString() },
        ADMIN_HEADERS,
      ),
    );
    const { historial, total } = body.data;
    expect(total).toBe(historial.length);
    // conductor_historial_sheet.dart:107-125: estado, tipo_documento (never null), motivo_rechazo, ruta_archivo, fecha_subida.
    expect(historial[0]).toMatchObject({
      tipo_documento: "soat",
      estado: "en_revision",
      motivo_rechazo: null,
      numero_documento: expect.any(String),
    });
    expect(historial[1]).toMatchObject({ tipo_documento: "soat", estado: "reemplazado" });
    for (const photo of historial) {
      expect(typeof photo.tipo_documento).toBe("string");
      expect(Number.isNaN(Date.parse(photo.fecha_subida))).toBe(false);
      expect(photo.ruta_archivo).toMatch(/^\/uploads\/conductores\/\d+\/.+\?expira=\d+&firma=/);
    }
  });

  it("conductor_actions.dart:7-99: approves one (and again: already done), rejects the other with a reason", async () => {
    // AdminService.aprobarConductor (admin_service.dart:410-439): {admin_id, conductor_id, notas: null}.
    const approve = { admin_id: adminId, conductor_id: toApprove.id, notas: null };
    expect(ok(await dartPost(app, "/admin/aprobar_conductor.php", approve, { accept: "application/json" })).message).toBe(
      "Conductor aprobado",
    );
    // A second tap, or a retry after a lost answer: done already, nothing written.
    const audits = await app.db.auditEntry.count();
    expect(ok(await dartPost(app, "/admin/aprobar_conductor.php", approve, { accept: "application/json" })).message).toBe(
      "El conductor ya estaba aprobado",
    );
    expect(await app.db.auditEntry.count()).toBe(audits);

    // AdminService.rechazarConductor (admin_service.dart:442-471).
    const reject = { admin_id: adminId, conductor_id: toReject.id, motivo: "La foto de la licencia está borrosa" };
    expect(ok(await dartPost(app, "/admin/rechazar_conductor.php", reject, { accept: "application/json" })).message).toBe(
      "Conductor rechazado; se le notificó el motivo",
    );
    expect(ok(await dartPost(app, "/admin/rechazar_conductor.php", reject, { accept: "application/json" })).message).toBe(
      "El conductor ya estaba rechazado con ese motivo",
    );

    // onSuccess reloads the queue.
    const queue = ok(
      await dartGet(
        app,
        "/admin/get_conductores_documentos.php",
        { admin_id: adminId.toString(), page: "1", per_page: "20" },
        ADMIN_HEADERS,
      ),
    );
    const state = (id: number) =>
      queue.data.conductores.find((driver: { usuario_id: number }) => driver.usuario_id === id).estado_verificacion;
    expect([state(toApprove.id), state(toReject.id)]).toEqual(["aprobado", "rechazado"]);
  });

  describe("pricing_management_screen.dart: the rates", () => {
    let moto: Record<string, any>;

    it("l.45-100: the screen's own request names nobody and is refused; naming the administrator, it loads", async () => {
      // http.get(url): no headers, no admin_id.
      const asShipped = await app.legacy("GET", "/admin/get_pricing_configs.php");
      expect(asShipped.status).toBe(401);
      const body = ok(await dartGet(app, "/admin/get_pricing_configs.php", { admin_id: adminId.toString() }, {}));
      // l.58-75: data is the list; tipo_vehiculo as String, activo == 1.
      expect(body.data.map((config: { tipo_vehiculo: string }) => config.tipo_vehiculo)).toEqual(["auto", "moto", "mototaxi"]);
      moto = body.data.find((config: { tipo_vehiculo: string }) => config.tipo_vehiculo === "moto");
      expect(moto).toMatchObject({ activo: 1, tarifa_base: 4000, recargo_hora_pico: 15, comision_plataforma: 15, tarifa_maxima: null });
    });

    it("l.560-673: saving one changed field applies it; every other field goes back as shown", async () => {
      const body = dialogSave(moto, { tarifa_base: "4500" });
      const saved = await dartPost(app, "/admin/update_pricing_config.php", { ...body, admin_id: adminId });
      expect(ok(saved).message).toBe("Tarifas guardadas");
      const reloaded = ok(await dartGet(app, "/admin/get_pricing_configs.php", { admin_id: adminId.toString() }, {}));
      const after = reloaded.data.find((config: { tipo_vehiculo: string }) => config.tipo_vehiculo === "moto");
      expect(after).toMatchObject({ tarifa_base: 4500, tarifa_minima: 6000, recargo_hora_pico: 15 });
      expect((await app.db.pricingRate.findUniqueOrThrow({ where: { tipo_vehiculo: "moto" } })).tarifa_base).toBe(4500);
      moto = after;
    });

    it("l.560-673: a changed commission is applied", async () => {
      const body = dialogSave(moto, { comision_plataforma: "12" });
      ok(await dartPost(app, "/admin/update_pricing_config.php", { ...body, admin_id: adminId }));
      expect((await app.db.pricingRate.findUniqueOrThrow({ where: { tipo_vehiculo: "moto" } })).comision_plataforma).toBe(12);
    });
  });

  it("audit_logs_screen.dart:61-79, 466-470: the audit log shows the pricing change first, as a sentence", async () => {
    // AdminService.getAuditLogs (admin_service.dart:220-262): page '1', per_page '50'.
    const body = ok(
      await dartGet(app, "/admin/audit_logs.php", { admin_id: adminId.toString(), page: "1", per_page: "50" }, ADMIN_HEADERS),
    );
    const [latest] = body.data.logs;
    expect(latest).toMatchObject({
      accion: "actualizar_tarifa",
      descripcion: "Cambió la tarifa de moto: comision_plataforma 12",
      nombre: "Administrador",
      apellido: "Principal",
      email: ADMIN_EMAIL,
    });
    expect(body.data.logs[1].descripcion).toBe("Cambió la tarifa de moto: tarifa_base 4500");
    expect(body.data.logs.map((log: { accion: string }) => log.accion)).toEqual([
      "actualizar_tarifa",
      "actualizar_tarifa",
      "rechazar_conductor",
      "aprobar_conductor",
      "actualizar_usuario",
      "actualizar_usuario",
    ]);
    expect(body.data.logs[2].descripcion).toBe(`Rechazó al conductor ${toReject.id}: La foto de la licencia está borrosa`);
  });

  it("admin_dashboard_tab.dart:119, 441-568: pulled to refresh, the dashboard lists the same actions", async () => {
    const body = ok(await dartGet(app, "/admin/dashboard_stats.php", { admin_id: adminId.toString() }, ADMIN_HEADERS));
    const [latest] = body.data.actividades_recientes;
    // l.558 Text(descripcion) needs a String; l.568 DateTime.parse(fecha_creacion).
    expect(latest).toMatchObject({
      accion: "actualizar_tarifa",
      descripcion: "Cambió la tarifa de moto: comision_plataforma 12",
      nombre: "Administrador",
    });
    expect(Number.isNaN(Date.parse(latest.fecha_creacion))).toBe(false);
    expect(body.data.conductores.aprobados).toBe(2);
  });
});

describe("the admin calls that name nobody", () => {
  let admin: { id: number };
  let passenger: { id: number };
  beforeAll(async () => {
    admin = (await app.db.user.findFirstOrThrow({ where: { email: ADMIN_EMAIL } })) as { id: number };
    passenger = await registerUser(app);
  });

  const moto = async () => (await app.db.pricingRate.findUniqueOrThrow({ where: { tipo_vehiculo: "moto" } })).id;

  it("are refused as the app sends them: get_stats, get_pricing_configs and update_pricing_config", async () => {
    // AdminRemoteDataSourceImpl.getSystemStats (features/admin/data/datasources/admin_remote_datasource.dart:29-50).
    const stats = await app.legacy("GET", "/admin/get_stats.php", undefined, { "content-type": "application/json" });
    expect(stats.status).toBe(401);
    expect(stats.body).toEqual({ success: false, message: "Esta llamada debe indicar quién la hace" });
    // pricing_management_screen.dart:52-53 and 632-639.
    expect((await app.legacy("GET", "/admin/get_pricing_configs.php")).status).toBe(401);
    const save = await dartPost(app, "/admin/update_pricing_config.php", { id: await moto(), tarifa_base: double(1) });
    expect(save.status).toBe(401);
    expect((await app.db.pricingRate.findUniqueOrThrow({ where: { tipo_vehiculo: "moto" } })).tarifa_base).not.toBe(1);
    // Someone else's id is no way in.
    const asPassenger = await dartGet(app, "/admin/get_stats.php", { admin_id: passenger.id.toString() }, {});
    expect(asPassenger.status).toBe(403);
  });

  it("work naming an administrator (LEGACY_AUTH=ids) or with an administrator's token", async () => {
    const named = ok(await dartGet(app, "/admin/get_stats.php", { admin_id: admin.id.toString() }, {}));
    // SystemStatsModel.fromJson(data['stats']): what the platform earned is its commission.
    expect(named.stats).toMatchObject({
      total_conductores: 3,
      conductores_pendientes: 0,
      viajes_total: 1,
      viajes_hoy: 1,
      ganancia_total: 3000,
    });
    const token = await app.bearer(admin.id);
    ok(await app.legacy("GET", "/admin/get_stats.php", undefined, token));
    ok(await app.legacy("GET", "/admin/get_pricing_configs.php", undefined, token));
    ok(await dartPost(app, "/admin/update_pricing_config.php", { id: await moto(), tarifa_minima: double(6500) }, token));
    expect((await app.db.pricingRate.findUniqueOrThrow({ where: { tipo_vehiculo: "moto" } })).tarifa_minima).toBe(6500);
  });

  it("with LEGACY_AUTH=token, need the token", async () => {
    const strict = await createTestApp({ env: { LEGACY_AUTH: "token" } });
    try {
      const other = await registerUser(strict);
      expect((await strict.legacy("GET", "/admin/get_stats.php")).status).toBe(401);
      expect((await strict.legacy("GET", "/admin/get_pricing_configs.php", undefined, await strict.bearer(other.id))).status).toBe(403);
      const boss = await strict.db.user.create({
        data: { email: "jefe@example.com", nombre: "J", apellido: "A", telefono: "3000000000", password_hash: "x", tipo_usuario: "admin" },
      });
      ok(await strict.legacy("GET", "/admin/get_pricing_configs.php", undefined, await strict.bearer(boss.id)));
    } finally {
      await strict.close();
    }
  });
});
