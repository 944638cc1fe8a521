import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.js";
import { FixedClock } from "../support/clock.js";
import { completeApplication, newAdmin, newDriver, submittedDriver } from "../support/drivers.js";
import { createDriver, tripIn } from "../support/trips.js";

// The deployed app's files named here (lib/src/…) are in https://github.com/Braian551/pingo/tree/35be6b2751ba54667ec1437fc46cd3a8ee79fd51.

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

describe("the drivers list over GraphQL", () => {
  const DRIVERS = `query (
    $search: String, $estado_revision: EstadoRevision, $tipo_vehiculo: TipoVehiculo, $en_linea: Boolean, $empresa_id: Int,
    $documentos_vencidos: Boolean, $sort: OrdenConductores, $order: Orden
  ) {
    drivers(
      per_page: 100, search: $search, estado_revision: $estado_revision, tipo_vehiculo: $tipo_vehiculo, en_linea: $en_linea,
      empresa_id: $empresa_id, documentos_vencidos: $documentos_vencidos, sort: $sort, order: $order
    ) { ... on PaginaConductores { items { conductor_id } estadisticas { total_conductores } } }
  }`;
  /** Ids of the drivers listed, among this block's own (the file's other drivers are left out). */
  const listed = async (args: Record<string, unknown>) => {
    const { data } = await app.graphql(DRIVERS, args, admin.id);
    return data.drivers.items.map((d: { conductor_id: number }) => d.conductor_id).filter((id: number) => mine.includes(id));
  };
  let mine: number[] = [];
  let [moto, car, parked, lapsed] = [0, 0, 0, 0];
  let plate = "";
  let companyId = 0;
  beforeAll(async () => {
    moto = (await createDriver(app, { tipo: "moto" })).id;
    car = (await createDriver(app, { tipo: "auto" })).id;
    parked = (await createDriver(app, { tipo: "auto", online: false })).id;
    lapsed = (await createDriver(app, { tipo: "mototaxi", expired: ["soat"], online: false })).id;
    mine = [moto, car, parked, lapsed];
    const names = ["Dora", "Bea", "Ceci", "Ana"];
    for (const [i, id] of mine.entries()) {
      await app.db.user.update({
        where: { id },
        data: {
          nombre: names[i],
          apellido: "Listable",
          email: `${names[i]!.toLowerCase()}.${id}@listado.co`,
          telefono: `31500000${i}${i}`,
        },
      });
      await app.db.driverProfile.update({ where: { conductor_id: id }, data: { fecha_aprobacion: new Date(Date.UTC(2026, 0, 10 - i)) } });
    }
    companyId = (await app.db.company.create({ data: { nombre: "Transportes Listados", nit: "800100200-3" } })).id;
    await app.db.user.update({ where: { id: car }, data: { empresa_id: companyId } });
    plate = (await app.db.vehicle.findUniqueOrThrow({ where: { conductor_id: parked } })).placa!;
  });

  it("filters by whether the driver is online now", async () => {
    expect(await listed({ en_linea: true })).toEqual([moto, car]);
    expect(await listed({ en_linea: false })).toEqual([parked, lapsed]);
  });

  it("filters by vehicle type, company, review state and expired documents", async () => {
    expect(await listed({ tipo_vehiculo: "auto" })).toEqual([car, parked]);
    expect(await listed({ tipo_vehiculo: "mototaxi" })).toEqual([lapsed]);
    expect(await listed({ empresa_id: companyId })).toEqual([car]);
    expect(await listed({ estado_revision: "aprobado" })).toEqual(mine);
    expect(await listed({ estado_revision: "en_revision" })).toEqual([]);
    expect(await listed({ documentos_vencidos: true })).toEqual([lapsed]);
    expect(await listed({ documentos_vencidos: false })).toEqual([moto, car, parked]);
    expect(await listed({ tipo_vehiculo: "auto", en_linea: false })).toEqual([parked]);
  });

  it("searches name, last name, e-mail, phone and plate, without regard to case or the plate's separators", async () => {
    expect(await listed({ search: "cEcI" })).toEqual([parked]);
    expect(await listed({ search: "listable" })).toEqual(mine);
    expect(await listed({ search: `dora.${moto}@` })).toEqual([moto]);
    expect(await listed({ search: "3150000011" })).toEqual([car]);
    expect(await listed({ search: `${plate.slice(0, 3).toLowerCase()}-${plate.slice(3)}` })).toEqual([parked]);
  });

  it("sorts by application, name, e-mail or approval date, in either order", async () => {
    expect(await listed({ sort: "nombre" })).toEqual([lapsed, car, parked, moto]);
    expect(await listed({ sort: "nombre", order: "desc" })).toEqual([moto, parked, car, lapsed]);
    expect(await listed({ sort: "email", order: "desc" })).toEqual([moto, parked, car, lapsed]);
    expect(await listed({ sort: "fecha_aprobacion" })).toEqual([lapsed, parked, car, moto]);
    expect(await listed({ sort: "id", order: "desc" })).toEqual([lapsed, parked, car, moto]);
    // None of them applied (they were approved directly): by id after the applications.
    expect(await listed({})).toEqual(mine);
  });

  it("takes only the review states there are, and keeps the legacy call's answer for a wrong one", async () => {
    const wrong = await app.graphql(DRIVERS, { estado_revision: "dudoso" }, admin.id);
    expect(wrong.errors?.[0]?.message).toMatch(/EstadoRevision/);
    const legacy = await list({ estado_verificacion: "dudoso" });
    expect(legacy.status).toBe(400);
    expect(legacy.body).toEqual({
      success: false,
      message: "El campo 'estado_verificacion' debe ser uno de: pendiente, en_revision, aprobado, rechazado",
    });
  });
});
