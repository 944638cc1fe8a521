import { getNamedType, type GraphQLObjectType } from "graphql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { schema } from "../../src/graphql/schema.js";
import { createTestApp, type TestApp } from "../support/app.js";
import { activeCompany, field, fleetDriver } from "../support/companies.js";
import { newAdmin } from "../support/drivers.js";
import { post, registerUser, uniqueEmail } from "../support/fixtures.js";
import { completedTrip, createDriver, createPassenger, requestTrip } from "../support/trips.js";

/** The trips done for a company, as its managers see them: its own only, the passenger by first name only. */

let app: TestApp;
let admin: { id: number };
let a: Awaited<ReturnType<typeof activeCompany>>;
let b: Awaited<ReturnType<typeof activeCompany>>;
let driver: { id: number };
let rider: { id: number; email: string };
const trips: Record<"ridden" | "cancelled" | "accepted" | "left" | "theirs" | "nobodys" | "pending", number> = {} as never;

const RIDER = { name: "Valentina Sofía", lastName: "Zuluaga Ríos", phone: "3157778899" };

beforeAll(async () => {
  app = await createTestApp();
  admin = await newAdmin(app);
  a = await activeCompany(app, admin.id, "Flota Aburrá");
  b = await activeCompany(app, admin.id, "Flota Oriente");
  driver = await fleetDriver(app, a.company.id);
  rider = await registerUser(app, { ...RIDER, email: uniqueEmail("valentina") });

  const accept = async (trip: { id: number }, by: { id: number }) =>
    expect((await post(app, "/viajes/accept_trip.php", { trip_id: trip.id, conductor_id: by.id })).status).toBe(200);
  trips.ridden = (await completedTrip(app, driver, { usuario_id: rider.id, metodo_pago: "efectivo" }, 21_000)).id;
  const cancelled = await requestTrip(app, (await createPassenger(app)).id);
  await accept(cancelled, driver);
  expect((await post(app, "/viajes/cancel_trip.php", { trip_id: cancelled.id, motivo: "El pasajero no salió" })).status).toBe(200);
  trips.cancelled = cancelled.id;
  const accepted = await requestTrip(app, (await createPassenger(app)).id, { tipo_servicio: "auto" });
  await accept(accepted, driver);
  trips.accepted = accepted.id;

  // A driver who did a trip for A, then moved to B: the trip stays A's.
  const mover = await fleetDriver(app, a.company.id);
  trips.left = (await completedTrip(app, mover, {}, 15_000)).id;
  await app.db.user.update({ where: { id: mover.id }, data: { empresa_id: b.company.id } });
  trips.theirs = (await completedTrip(app, mover, {}, 18_000)).id;
  trips.nobodys = (await completedTrip(app, await createDriver(app), {}, 12_000)).id;
  trips.pending = (await requestTrip(app, (await createPassenger(app)).id)).id;
});
afterAll(() => app.close());

const TRIP = `id estado tipo_servicio metodo_pago origen { direccion latitud longitud referencia } destino { direccion }
  conductor_id conductor_nombre pasajero_nombre precio_estimado precio_final comision_plataforma comision_metodo_pago
  porcentaje_empresa comision_empresa ganancia_conductor distancia_km duracion_estimada_minutos fecha_solicitud
  fecha_aceptacion fecha_inicio fecha_fin fecha_cancelacion motivo_cancelacion cancelado_por calificacion_conductor comentario_conductor`;
const TRIPS = `query ($e: Int, $page: Int, $per_page: Int, $estados: [EstadoViaje!], $conductor_id: Int, $search: String,
    $sort: OrdenViajes, $order: Orden) {
  companyTrips(empresa_id: $e, page: $page, per_page: $per_page, estados: $estados, conductor_id: $conductor_id, search: $search,
      sort: $sort, order: $order) {
    __typename
    ... on Error { code message }
    ... on PaginaViajesEmpresa { items { ${TRIP} } pagination { page per_page total total_pages } }
  }
}`;

const list = (variables: Record<string, unknown>, as: number) => app.graphql(TRIPS, variables, as);
const ids = async (variables: Record<string, unknown>, as = a.manager.id) =>
  ((await field(app, TRIPS, variables, as)).items as Array<{ id: number }>).map((trip) => trip.id).sort((x, y) => x - y);
const sorted = (...names: Array<keyof typeof trips>) => names.map((name) => trips[name]).sort((x, y) => x - y);

describe("companyTrips", () => {
  it("lists the trips done for the company, whoever drives for it now, and for an administrator the company named", async () => {
    const own = sorted("ridden", "cancelled", "accepted", "left");
    expect(await ids({})).toEqual(own);
    expect(await ids({ e: a.company.id }, admin.id)).toEqual(own);
    expect(await ids({}, b.manager.id)).toEqual([trips.theirs]);
    expect(await field(app, TRIPS, { e: a.company.id }, b.manager.id)).toMatchObject({ __typename: "ForbiddenError" });
    expect(await field(app, TRIPS, {}, admin.id)).toMatchObject({
      __typename: "ValidationError",
      message: expect.stringMatching(/empresa_id/),
    });
    expect(await field(app, TRIPS, {}, driver.id)).toMatchObject({ __typename: "ForbiddenError" });
  });

  it("never shows a passenger's e-mail, phone, surname or other names: only the first name", async () => {
    const response = await list({ per_page: 100 }, a.manager.id);
    const text = JSON.stringify(response);
    const ridden = response.data.companyTrips.items.find((trip: { id: number }) => trip.id === trips.ridden);
    expect(ridden).toMatchObject({ pasajero_nombre: "Valentina", conductor_id: driver.id, conductor_nombre: "Ana Restrepo" });
    for (const secret of [rider.email, RIDER.phone, "Sofía", "Zuluaga", "Ríos"]) expect(text).not.toContain(secret);
    // Nor can a query ask for them: the company's trip has no field that leads to the passenger's account.
    const fields = Object.values((schema.getType("ViajeEmpresa") as GraphQLObjectType).getFields());
    expect(fields.filter((f) => /usuario|pasajero/.test(f.name)).map((f) => f.name)).toEqual(["pasajero_nombre"]);
    expect(fields.filter((f) => getNamedType(f.type).name === "Usuario")).toEqual([]);
  });

  it("shows each trip's money as the ledger split it, the company's share included", async () => {
    const ridden = (await field(app, TRIPS, { search: String(trips.ridden) }, a.manager.id)).items[0];
    expect(ridden).toMatchObject({
      estado: "completado",
      metodo_pago: "efectivo",
      precio_final: 21_000,
      comision_plataforma: 3150,
      comision_metodo_pago: 0,
      comision_empresa: 0,
      ganancia_conductor: 17_850,
    });
  });

  it("takes the administrators' filters and sort", async () => {
    expect(await ids({ estados: ["cancelado"] })).toEqual([trips.cancelled]);
    expect(await ids({ estados: ["aceptado", "completado"] })).toEqual(sorted("ridden", "accepted", "left"));
    expect(await ids({ conductor_id: driver.id })).toEqual(sorted("ridden", "cancelled", "accepted"));
    expect(await ids({ search: String(trips.theirs) })).toEqual([]);
    expect(await ids({ search: String(trips.left) })).toEqual([trips.left]);
    const cheapest = await field(app, TRIPS, { sort: "id", order: "asc", per_page: 2, page: 2 }, a.manager.id);
    expect(cheapest.items.map((trip: { id: number }) => trip.id)).toEqual(sorted("accepted", "left"));
    expect(cheapest.pagination).toEqual({ page: 2, per_page: 2, total: 4, total_pages: 2 });
  });

  it("reads a page's drivers and passengers with its trips, whatever the page's size", async () => {
    await list({ per_page: 4 }, a.manager.id);
    const statements = async (per_page: number) => {
      const before = app.queries.length;
      expect((await field(app, TRIPS, { per_page }, a.manager.id)).items).toHaveLength(per_page);
      return app.queries.length - before;
    };
    expect(await statements(4)).toBe(await statements(1));
  });
});
