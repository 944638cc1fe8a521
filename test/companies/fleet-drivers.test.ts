import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.js";
import { activeCompany, field, fleetDriver, tripRow } from "../support/companies.js";
import { completeApplication, newAdmin, newDriver } from "../support/drivers.js";
import { post } from "../support/fixtures.js";
import { completedTrip, createDriver, createPassenger, requestTrip } from "../support/trips.js";

/** A company's drivers as its managers see them: its own only, where they are, their rates, debt and documents. */

const DAY = 24 * 3600 * 1000;
let app: TestApp;
let admin: { id: number };
let a: Awaited<ReturnType<typeof activeCompany>>;
let b: Awaited<ReturnType<typeof activeCompany>>;
/** Company A's drivers: free, on a trip, with documents expired and expiring, with a document expiring. */
let free: { id: number };
let busy: { id: number };
let expired: { id: number };
let expiring: { id: number };
let busyTrip: { id: number };
let otherFleet: { id: number };
let unaffiliated: { id: number };

beforeAll(async () => {
  app = await createTestApp();
  admin = await newAdmin(app);
  a = await activeCompany(app, admin.id, "Flota Aburrá");
  b = await activeCompany(app, admin.id, "Flota Oriente");
  const now = app.server.deps.clock.now();
  const inTenDays = new Date(now.getTime() + 10 * DAY);

  free = await fleetDriver(app, a.company.id);
  busy = await fleetDriver(app, a.company.id);
  expired = await fleetDriver(app, a.company.id, { online: false, expired: ["licencia"] });
  expiring = await fleetDriver(app, a.company.id, { online: false });
  await app.db.vehicle.updateMany({ where: { conductor_id: { in: [expired.id, expiring.id] } }, data: { soat_vencimiento: inTenDays } });
  otherFleet = await fleetDriver(app, b.company.id);
  unaffiliated = await createDriver(app);

  // A cash trip leaves the driver owing the platform its commission: 15% of 20,000.
  await completedTrip(app, free, {}, 20_000);
  busyTrip = await requestTrip(app, (await createPassenger(app)).id);
  expect((await post(app, "/viajes/accept_trip.php", { trip_id: busyTrip.id, conductor_id: busy.id })).status).toBe(200);

  // Three trips taken of six shown, two of them completed: one for this company, one for another.
  const taken = [
    await tripRow(app, { estado: "completado", conductor_id: expired.id, empresa_id: a.company.id, precio_final: 10_000 }),
    await tripRow(app, { estado: "cancelado", conductor_id: expired.id, empresa_id: a.company.id }),
    await tripRow(app, { estado: "completado", conductor_id: expired.id, empresa_id: b.company.id, precio_final: 10_000 }),
  ];
  const declined = await Promise.all([0, 1, 2].map(() => tripRow(app, { estado: "cancelado" })));
  await app.db.tripOffer.createMany({
    data: [
      ...taken.map((trip) => ({ viaje_id: trip.id, conductor_id: expired.id, respuesta: "aceptada" })),
      ...declined.map((trip, i) => ({ viaje_id: trip.id, conductor_id: expired.id, respuesta: i === 0 ? null : "rechazada" })),
    ],
  });
  await app.db.user.update({ where: { id: expired.id }, data: { calificacion: 4.5, total_calificaciones: 2 } });
  await app.db.user.update({ where: { id: free.id }, data: { calificacion: 4.9, total_calificaciones: 7 } });
});
afterAll(() => app.close());

const ROW = `conductor_id nombre apellido email telefono estado_revision aprobado conexion
  vehiculo { placa tipo marca modelo color }
  viaje_actual { id estado origen_direccion destino_direccion fecha_aceptacion }
  calificacion total_calificaciones tasa_aceptacion tasa_completacion deuda
  documentos { documento vence vencido }`;
const DRIVERS = `query ($e: Int, $page: Int, $per_page: Int, $search: String, $conexion: ConexionConductor,
    $documentos: EstadoDocumentosConductor, $sort: OrdenConductoresEmpresa, $order: Orden) {
  companyDrivers(empresa_id: $e, page: $page, per_page: $per_page, search: $search, conexion: $conexion, documentos: $documentos,
      sort: $sort, order: $order) {
    __typename
    ... on Error { code message }
    ... on PaginaConductoresEmpresa { items { ${ROW} } pagination { page per_page total total_pages } }
  }
}`;

type Row = { conductor_id: number; [field: string]: unknown };
const list = (variables: Record<string, unknown>, as: number) => field(app, DRIVERS, variables, as);
const ids = async (variables: Record<string, unknown>, as = a.manager.id) =>
  ((await list(variables, as)).items as Row[]).map((row) => row.conductor_id).sort((x, y) => x - y);
const sorted = (...drivers: Array<{ id: number }>) => drivers.map((driver) => driver.id).sort((x, y) => x - y);

describe("companyDrivers", () => {
  it("lists the manager's own drivers only, and for an administrator the company named", async () => {
    expect(await ids({})).toEqual(sorted(free, busy, expired, expiring));
    expect(await ids({ e: a.company.id }, admin.id)).toEqual(sorted(free, busy, expired, expiring));
    expect(await ids({}, b.manager.id)).toEqual([otherFleet.id]);
    expect(await list({}, admin.id)).toMatchObject({ __typename: "ValidationError", message: expect.stringMatching(/empresa_id/) });
    expect(await list({ e: a.company.id }, b.manager.id)).toMatchObject({ __typename: "ForbiddenError" });
    expect(await list({}, unaffiliated.id)).toMatchObject({ __typename: "ForbiddenError" });
  });

  it("shows where each driver is, the current trip, rating, rates, debt and the documents expired or expiring", async () => {
    const page = await list({ per_page: 10 }, a.manager.id);
    expect(page.pagination).toEqual({ page: 1, per_page: 10, total: 4, total_pages: 1 });
    const byId = new Map((page.items as Row[]).map((row) => [row.conductor_id, row]));
    expect(byId.get(free.id)).toMatchObject({
      conexion: "en_linea",
      viaje_actual: null,
      deuda: 3000,
      calificacion: 4.9,
      total_calificaciones: 7,
      tasa_completacion: 100,
      documentos: [],
      vehiculo: { tipo: "auto", marca: "Marca" },
    });
    expect(byId.get(busy.id)).toMatchObject({
      conexion: "en_viaje",
      viaje_actual: { id: busyTrip.id, estado: "aceptado", origen_direccion: expect.any(String) },
      deuda: 0,
    });
    // The rates are the driver's own, as their statistics show them, whichever company the trips were for.
    const STATS = `query ($id: Int) { driverStatistics(conductor_id: $id) { ... on EstadisticasConductor { tasa_aceptacion tasa_completacion } } }`;
    expect(await field(app, STATS, { id: expired.id }, admin.id)).toEqual({ tasa_aceptacion: 50, tasa_completacion: 66.67 });
    expect(byId.get(expired.id)).toMatchObject({
      conexion: "desconectado",
      tasa_aceptacion: 50,
      tasa_completacion: 66.67,
      documentos: [
        { documento: "licencia", vencido: true, vence: expect.any(String) },
        { documento: "soat", vencido: false, vence: expect.any(String) },
      ],
    });
    expect(byId.get(expiring.id)).toMatchObject({ documentos: [{ documento: "soat", vencido: false }] });
  });

  it("filters by where drivers are and by their documents, searches by plate, and sorts by rating", async () => {
    expect(await ids({ conexion: "en_linea" })).toEqual([free.id]);
    expect(await ids({ conexion: "en_viaje" })).toEqual([busy.id]);
    expect(await ids({ conexion: "desconectado" })).toEqual(sorted(expired, expiring));
    expect(await ids({ documentos: "vencidos" })).toEqual([expired.id]);
    expect(await ids({ documentos: "por_vencer" })).toEqual(sorted(expired, expiring));
    expect(await ids({ documentos: "al_dia" })).toEqual(sorted(free, busy));
    const { placa } = await app.db.vehicle.findUniqueOrThrow({ where: { conductor_id: expiring.id } });
    expect(await ids({ search: placa!.toLowerCase() })).toEqual([expiring.id]);
    // Another company's driver is found by nobody but that company.
    const { placa: theirs } = await app.db.vehicle.findUniqueOrThrow({ where: { conductor_id: otherFleet.id } });
    expect(await ids({ search: theirs })).toEqual([]);
    const byRating = await list({ sort: "calificacion", order: "desc", per_page: 2 }, a.manager.id);
    expect(byRating.items.map((row: Row) => row.conductor_id)).toEqual([free.id, expired.id]);
  });

  it("reads a page's rows in as many statements for four drivers as for one", async () => {
    await list({ per_page: 4 }, a.manager.id);
    const statements = async (per_page: number) => {
      const before = app.queries.length;
      expect((await list({ per_page }, a.manager.id)).items).toHaveLength(per_page);
      return app.queries.length - before;
    };
    expect(await statements(4)).toBe(await statements(1));
  });
});

const DETAIL = `query ($id: Int!, $e: Int) {
  companyDriver(conductor_id: $id, empresa_id: $e) {
    __typename
    ... on Error { code message }
    ... on DetalleConductorEmpresa {
      conductor { conductor_id conexion deuda }
      perfil { conductor_id nombre_completo licencia { numero imagen_frente } vehiculo { placa foto_soat } }
      fotos { tipo_documento url estado }
      ganancias { hoy { viajes_completados bruto comision comision_empresa neto_plataforma neto } total { viajes_completados bruto } }
      viajes_recientes { id estado precio_final pasajero_nombre }
    }
  }
}`;

describe("companyDriver", () => {
  it("shows a driver's profile, vehicle and documents with signed photo links, trips and earnings", async () => {
    const applicant = await newDriver(app);
    await completeApplication(app, applicant.id);
    await app.db.user.update({ where: { id: applicant.id }, data: { empresa_id: a.company.id } });
    const detail = await field(app, DETAIL, { id: applicant.id }, a.manager.id);
    const signed = expect.stringMatching(new RegExp(`^/uploads/conductores/${applicant.id}/.+\\?expira=\\d+&firma=[\\w-]+$`));
    expect(detail.perfil).toMatchObject({
      conductor_id: applicant.id,
      nombre_completo: "Carla Gómez",
      licencia: { imagen_frente: signed },
      vehiculo: { foto_soat: signed },
    });
    expect(detail.fotos).toHaveLength(6);
    for (const photo of detail.fotos) expect(photo.url).toEqual(signed);

    const earner = await field(app, DETAIL, { id: free.id, e: a.company.id }, admin.id);
    expect(earner.conductor).toEqual({ conductor_id: free.id, conexion: "en_linea", deuda: 3000 });
    expect(earner.ganancias.hoy).toMatchObject({ viajes_completados: 1, bruto: 20_000, comision: 3000, neto: 17_000 });
    expect(earner.ganancias.total).toEqual({ viajes_completados: 1, bruto: 20_000 });
    expect(earner.viajes_recientes).toEqual([
      { id: expect.any(Number), estado: "completado", precio_final: 20_000, pasajero_nombre: "Ana" },
    ]);
  });

  it("shows its managers where the driver is now, as the driver's own profile does", async () => {
    const now = await field(
      app,
      `query ($id: Int!) {
        companyDriver(conductor_id: $id) {
          ... on DetalleConductorEmpresa { perfil { estado_actual { conductor_id disponibilidad latitud viaje_activo_id } } }
        }
      }`,
      { id: free.id },
      a.manager.id,
    );
    const own = await field(app, `{ driverProfile { ... on PerfilConductor { estado_actual { latitud } } } }`, {}, free.id);
    expect(now.perfil.estado_actual).toEqual({
      conductor_id: free.id,
      disponibilidad: 1,
      latitud: own.estado_actual.latitud,
      viaje_activo_id: null,
    });
  });

  it("finds nothing of another company's driver or of a driver of none, photos included", async () => {
    expect(await field(app, DETAIL, { id: otherFleet.id }, a.manager.id)).toMatchObject({ __typename: "NotFoundError" });
    expect(await field(app, DETAIL, { id: unaffiliated.id }, a.manager.id)).toMatchObject({ __typename: "NotFoundError" });
    expect(await field(app, DETAIL, { id: free.id }, b.manager.id)).toMatchObject({ __typename: "NotFoundError" });
    expect(await field(app, DETAIL, { id: free.id, e: a.company.id }, b.manager.id)).toMatchObject({ __typename: "ForbiddenError" });
    expect(await field(app, DETAIL, { id: free.id }, admin.id)).toMatchObject({ __typename: "ValidationError" });
  });
});
