import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.js";
import { FixedClock } from "../support/clock.js";
import { completeApplication, newAdmin, newDriver, submittedDriver } from "../support/drivers.js";
import { tripIn } from "../support/trips.js";

let app: TestApp;
let admin: { id: number };
const clock = new FixedClock("2026-03-10T15:00:00Z");
beforeAll(async () => {
  app = await createTestApp({ clock });
  admin = await newAdmin(app);
});
afterAll(() => app.close());

const list = (query: Record<string, string> = {}) =>
  app.legacy("GET", "/admin/get_conductores_documentos.php", { admin_id: String(admin.id), page: "1", per_page: "20", ...query });

describe("the drivers an administrator reviews", () => {
  // lib/src/features/admin/presentation/screens/conductores_documentos_screen.dart
  it("lists drivers by review state with the counts of pingo's review screen", async () => {
    const fresh = await newDriver(app);
    const waiting = await submittedDriver(app, "moto");
    const expired = await newDriver(app);
    await completeApplication(app, expired.id);
    await app.db.vehicle.update({ where: { conductor_id: expired.id }, data: { soat_vencimiento: new Date("2026-01-01T00:00:00Z") } });

    const all = await list();
    expect(all.status).toBe(200);
    expect(all.body.data).toEqual({
      conductores: all.body.conductores,
      pagination: all.body.pagination,
      estadisticas: all.body.estadisticas,
    });
    expect(all.body.data.estadisticas).toEqual({
      total_conductores: 3,
      pendientes_verificacion: 1,
      aprobados: 0,
      con_documentos_vencidos: 1,
    });
    expect(all.body.pagination).toEqual({ page: 1, per_page: 20, total: 3, total_pages: 1 });
    // The one waiting comes first: oldest application first, never-submitted ones after.
    expect(all.body.conductores.map((c: { usuario_id: number }) => c.usuario_id)).toEqual([waiting.id, fresh.id, expired.id]);

    const [entry] = (await list({ estado_verificacion: "en_revision" })).body.data.conductores;
    expect(entry).toMatchObject({
      usuario_id: waiting.id,
      email: waiting.email,
      estado_verificacion: "en_revision",
      aprobado: false,
      es_activo: true,
      tiene_documentos_vencidos: false,
      documentos_vencidos: [],
      porcentaje_completitud: 100,
      documentos_pendientes: [],
      licencia_categoria: "A2",
      vehiculo_tipo: "moto",
      vehiculo_marca: "Renault",
      total_viajes: 0,
      total_calificaciones: 0,
    });
    expect(typeof entry.licencia_conduccion).toBe("string");
    expect(entry.documentos_completos).toBe(entry.total_documentos_requeridos);

    const withExpired = all.body.conductores.find((c: { usuario_id: number }) => c.usuario_id === expired.id);
    expect(withExpired).toMatchObject({ tiene_documentos_vencidos: true, documentos_vencidos: ["el SOAT"] });
    const empty = all.body.conductores.find((c: { usuario_id: number }) => c.usuario_id === fresh.id);
    expect(empty.porcentaje_completitud).toBeLessThan(100);
    expect(empty.documentos_pendientes).toContain("licencia.numero");
    expect(empty.licencia_conduccion).toBeNull();
  });

  it("counts each driver's completed trips and ratings", async () => {
    const { trip, driver } = await tripIn(app, "completado");
    await app.legacy("POST", "/viajes/rate_conductor.php", { trip_id: trip.id, calificacion: 4 });
    const { conductores } = (await list({ estado_verificacion: "aprobado" })).body.data;
    expect(conductores.find((c: { usuario_id: number }) => c.usuario_id === driver.id)).toMatchObject({
      total_viajes: 1,
      total_calificaciones: 1,
      calificacion_promedio: 4,
    });
  });

  it("refuses an unknown review state and a caller who is not an administrator", async () => {
    const bad = await list({ estado_verificacion: "dudoso" });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/^El campo 'estado_verificacion' debe ser uno de: pendiente, en_revision, aprobado, rechazado/);
    const driver = await newDriver(app);
    expect((await app.legacy("GET", "/admin/get_conductores_documentos.php", { admin_id: String(driver.id) })).status).toBe(403);
  });
});
