import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.js";
import { newAdmin } from "../support/drivers.js";
import { registerUser } from "../support/fixtures.js";
import { activeCompany, fleetDriver } from "../support/companies.js";
import { completedTrip, createDriver, ESTADIO, LLERAS, requestTrip } from "../support/trips.js";

/** The administrators' list of every trip: filters, search, sort and pages, against rows made for each. */

let app: TestApp;
let admin: { id: number };
let ana: number;
let beto: number;
let driver: number;
let companyDriver: number;
let company: number;
const ids: Record<string, number> = {};

const place = (prefix: "origen" | "destino", direccion: string, at = LLERAS) => ({
  [`${prefix}_direccion`]: direccion,
  [`${prefix}_latitud`]: at.latitud,
  [`${prefix}_longitud`]: at.longitud,
});

async function trip(name: string, fields: Record<string, unknown>) {
  const row = await app.db.trip.create({
    data: {
      tipo_servicio: "auto",
      ...place("origen", "Calle 10 # 43-20, El Poblado"),
      ...place("destino", "Estadio Atanasio Girardot", ESTADIO),
      precio_estimado: 10_000,
      distancia_km: 5,
      duracion_estimada_minutos: 15,
      ...fields,
    } as never,
  });
  ids[name] = row.id;
}

beforeAll(async () => {
  app = await createTestApp();
  admin = await newAdmin(app);
  ana = (await registerUser(app)).id;
  beto = (await registerUser(app)).id;
  driver = (await createDriver(app, { online: false })).id;
  companyDriver = (await createDriver(app, { online: false })).id;
  company = (await app.db.company.create({ data: { nombre: "Flota Antioquia", nit: "900123456-1" } as never })).id;
  await app.db.user.update({ where: { id: companyDriver }, data: { empresa_id: company } });
  await trip("viejo", {
    usuario_id: ana,
    estado: "completado",
    conductor_id: driver,
    fecha_solicitud: new Date("2026-03-01T15:00:00Z"),
    precio_estimado: 30_000,
    distancia_km: 12,
  });
  await trip("moto", {
    usuario_id: beto,
    estado: "cancelado",
    tipo_servicio: "motocicleta",
    fecha_solicitud: new Date("2026-03-05T15:00:00Z"),
    precio_estimado: 5_000,
  });
  await trip("flota", {
    usuario_id: beto,
    estado: "en_curso",
    conductor_id: companyDriver,
    empresa_id: company,
    fecha_solicitud: new Date("2026-03-09T04:30:00Z"),
    ...place("destino", "Aeropuerto José María Córdova"),
  });
  await trip("hoy", {
    usuario_id: ana,
    estado: "pendiente",
    fecha_solicitud: new Date("2026-03-10T15:00:00Z"),
    precio_estimado: 18_000,
    distancia_km: 8,
  });
});
afterAll(() => app.close());

const TRIPS = `query ($estados: [EstadoViaje!], $tipo_servicio: TipoServicio, $pasajero_id: Int, $conductor_id: Int, $empresa_id: Int,
  $desde: String, $hasta: String, $search: String, $sort: OrdenViajes, $order: Orden, $page: Int, $per_page: Int) {
  trips(estados: $estados, tipo_servicio: $tipo_servicio, pasajero_id: $pasajero_id, conductor_id: $conductor_id, empresa_id: $empresa_id,
    desde: $desde, hasta: $hasta, search: $search, sort: $sort, order: $order, page: $page, per_page: $per_page) {
    __typename
    ... on Error { message }
    ... on PaginaViajes { items { id estado pasajero { id } conductor { id } } pagination { page per_page total total_pages } }
  }
}`;

async function list(variables: Record<string, unknown> = {}, as = admin.id) {
  const { data, errors } = await app.graphql(TRIPS, variables, as);
  expect(errors).toBeUndefined();
  return data.trips;
}

const named = (page: { items: Array<{ id: number }> }) =>
  page.items.map((item) => Object.entries(ids).find(([, id]) => id === item.id)?.[0] ?? `otro ${item.id}`);

describe("trips for administrators", () => {
  it("lists every trip, the most recently requested first, with who rode and drove it", async () => {
    const page = await list();
    expect(named(page)).toEqual(["hoy", "flota", "moto", "viejo"]);
    expect(page.items[3]).toMatchObject({ pasajero: { id: ana }, conductor: { id: driver } });
    expect(page.pagination).toEqual({ page: 1, per_page: 20, total: 4, total_pages: 1 });
  });

  it("filters by states, service, passenger, driver, the company a trip was done for and Bogotá days", async () => {
    expect(named(await list({ estados: ["pendiente", "en_curso"] }))).toEqual(["hoy", "flota"]);
    expect(named(await list({ tipo_servicio: "motocicleta" }))).toEqual(["moto"]);
    expect(named(await list({ pasajero_id: ana }))).toEqual(["hoy", "viejo"]);
    expect(named(await list({ conductor_id: driver }))).toEqual(["viejo"]);
    expect(named(await list({ empresa_id: company }))).toEqual(["flota"]);
    // 2026-03-09T04:30Z is 23:30 on the 8th in Bogotá.
    expect(named(await list({ desde: "2026-03-05", hasta: "2026-03-08" }))).toEqual(["flota", "moto"]);
    expect(named(await list({ desde: "2026-03-09" }))).toEqual(["hoy"]);
    expect(named(await list({ estados: ["completado"], pasajero_id: beto }))).toEqual([]);
  });

  it("searches by trip number, or by part of either address ignoring case", async () => {
    expect(named(await list({ search: String(ids.moto) }))).toEqual(["moto"]);
    expect(named(await list({ search: "aeropuerto" }))).toEqual(["flota"]);
    expect(named(await list({ search: "POBLADO" }))).toEqual(["hoy", "flota", "moto", "viejo"]);
    expect(named(await list({ search: "Bello" }))).toEqual([]);
    // Digits alone are a trip's number, never part of an address ("# 43-20").
    expect(named(await list({ search: "43" }))).toEqual([]);
    expect(named(await list({ search: "43-20" }))).toEqual(["hoy", "flota", "moto", "viejo"]);
  });

  it("sorts by price or distance either way, and pages with totals", async () => {
    expect(named(await list({ sort: "precio_estimado" }))).toEqual(["moto", "flota", "hoy", "viejo"]);
    expect(named(await list({ sort: "precio_estimado", order: "desc" }))).toEqual(["viejo", "hoy", "flota", "moto"]);
    expect(named(await list({ sort: "fecha_solicitud", order: "asc" }))).toEqual(["viejo", "moto", "flota", "hoy"]);
    const second = await list({ sort: "distancia_km", order: "desc", per_page: 2, page: 2 });
    expect(named(second)).toEqual(["flota", "moto"]);
    expect(second.pagination).toEqual({ page: 2, per_page: 2, total: 4, total_pages: 2 });
  });

  it("refuses bad input in Spanish, and everyone but administrators", async () => {
    expect(await list({ per_page: 500 })).toMatchObject({
      __typename: "ValidationError",
      message: expect.stringMatching(/per_page.*entre 1 y 100/),
    });
    expect(await list({ desde: "2026-03-10", hasta: "2026-03-01" })).toMatchObject({
      __typename: "ValidationError",
      message: expect.stringMatching(/hasta/),
    });
    expect(await list({ desde: "ayer" })).toMatchObject({ __typename: "ValidationError", message: expect.stringMatching(/desde.*fecha/) });
    expect(await list({}, ana)).toMatchObject({ __typename: "ForbiddenError" });
    expect((await app.graphql(TRIPS, {})).status).toBe(401);
  });

  it("reads a page's passengers and drivers with the trips, whatever the page's size", async () => {
    const statements = async (per_page: number) => {
      const before = app.queries.length;
      await list({ per_page });
      return app.queries.length - before;
    };
    expect(await statements(4)).toBe(await statements(1));
  });
});

describe("trips for administrators, by company", () => {
  it("are the trips done for the company, as companyTrips has them: a driver who changes company leaves their trips behind", async () => {
    const first = await activeCompany(app, admin.id);
    const second = await activeCompany(app, admin.id);
    const mover = await fleetDriver(app, first.company.id);
    const before = await completedTrip(app, mover, {}, 15_000);
    const moved = await app.graphql(
      `mutation ($id: Int!, $e: Int) { updateUser(user_id: $id, input: { empresa_id: $e }) { __typename } }`,
      { id: mover.id, e: second.company.id },
      admin.id,
    );
    expect(moved.data.updateUser).toEqual({ __typename: "Usuario" });
    const after = await completedTrip(app, mover, {}, 18_000);
    const ids = async (variables: Record<string, unknown>) => (await list(variables)).items.map((trip: { id: number }) => trip.id);
    expect(await ids({ empresa_id: first.company.id })).toEqual([before.id]);
    expect(await ids({ empresa_id: second.company.id })).toEqual([after.id]);
    // Narrowed to the driver as well, each company still has only its own.
    expect(await ids({ empresa_id: first.company.id, conductor_id: mover.id })).toEqual([before.id]);
    expect(await ids({ empresa_id: second.company.id, conductor_id: mover.id })).toEqual([after.id]);
  });
});

describe("an administrator's cancellation", () => {
  it("is kept in the audit log with the reason and the state it cancelled", async () => {
    const passenger = await registerUser(app);
    await createDriver(app);
    const trip = await requestTrip(app, passenger.id);
    const { data } = await app.graphql(
      `mutation ($id: Int!) { cancelTrip(trip_id: $id, motivo: "Reporte de fraude") { __typename ... on Viaje { estado cancelado_por } } }`,
      { id: trip.id },
      admin.id,
    );
    expect(data.cancelTrip).toEqual({ __typename: "Viaje", estado: "cancelado", cancelado_por: "admin" });
    const entries = await app.db.auditEntry.findMany({ where: { accion: "cancelar_viaje", objetivo_id: trip.id } });
    expect(entries).toMatchObject([{ admin_id: admin.id, objetivo_tipo: "viaje", via: "token" }]);
    const log = await app.graphql(
      `query ($id: Int!) { auditLog(objetivo_id: $id) { ... on PaginaAuditoria { items { accion descripcion } } } }`,
      { id: trip.id },
      admin.id,
    );
    expect(log.data.auditLog.items).toEqual([
      { accion: "cancelar_viaje", descripcion: `Canceló el viaje ${trip.id} (pendiente): Reporte de fraude` },
    ]);
  });

  it("is the only one audited: a passenger's own is not", async () => {
    const passenger = await registerUser(app);
    await createDriver(app);
    const trip = await requestTrip(app, passenger.id);
    const { data } = await app.graphql(
      `mutation ($id: Int!) { cancelTrip(trip_id: $id, motivo: "Ya no lo necesito") { __typename } }`,
      { id: trip.id },
      passenger.id,
    );
    expect(data.cancelTrip).toEqual({ __typename: "Viaje" });
    expect(await app.db.auditEntry.count({ where: { objetivo_tipo: "viaje", objetivo_id: trip.id } })).toBe(0);
  });
});
