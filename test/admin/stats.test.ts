import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { splitFare } from "../../src/domain/money/fare-split.js";
import { postCompletedTrip } from "../../src/domain/money/trip-postings.js";
import { createTestApp, type TestApp } from "../support/app.js";
import { FixedClock } from "../support/clock.js";
import { newAdmin, submittedDriver } from "../support/drivers.js";
import { uniqueEmail } from "../support/fixtures.js";
import { createDriver, createPassenger, requestTrip } from "../support/trips.js";

/** The platform's figures, each against rows made for it, on Bogotá calendar days (UTC-5). */

// Tuesday 2026-03-10, 10:00 in Bogotá.
let clock: FixedClock;
let app: TestApp;
let admin: { id: number };
beforeEach(async () => {
  clock = new FixedClock("2026-03-10T15:00:00.000Z");
  app = await createTestApp({ clock });
  admin = await newAdmin(app);
  // Accounts made by the helpers carry the real date; the figures below count the dates set here.
  await app.db.user.update({ where: { id: admin.id }, data: { creado_en: new Date("2026-01-15T12:00:00Z") } });
});
afterEach(() => app.close());

const INCOME = "viajes_completados bruto comision neto";
const STATS = `query ($desde: String, $hasta: String) {
  platformStats(desde: $desde, hasta: $hasta) {
    __typename
    ... on Error { message }
    ... on EstadisticasPlataforma {
      generado_en
      administrador { id }
      usuarios { total activos pasajeros conductores administradores empresas registros_hoy registros_mes registros_por_dia { fecha cantidad } }
      conductores { en_linea disponibles en_viaje en_revision aprobados por_tipo_vehiculo { tipo_vehiculo en_linea disponibles en_viaje } }
      viajes { total activos hoy por_estado { estado cantidad } hoy_por_estado { estado cantidad } }
      ingresos { hoy { ${INCOME} } mes { ${INCOME} } total { ${INCOME} } }
      periodo { desde hasta registros viajes viajes_por_estado { estado cantidad } ingresos { ${INCOME} } }
      actividad_reciente { accion descripcion }
    }
  }
}`;

async function stats(range: { desde?: string; hasta?: string } = {}) {
  const { data, errors } = await app.graphql(STATS, range, admin.id);
  expect(errors).toBeUndefined();
  return data.platformStats;
}

const account = (tipo_usuario: string, creado_en: string, extra: Record<string, unknown> = {}) =>
  app.db.user.create({
    data: {
      email: uniqueEmail(tipo_usuario),
      nombre: "Cifra",
      apellido: "Prueba",
      telefono: "3001112233",
      password_hash: "unused",
      tipo_usuario,
      creado_en: new Date(creado_en),
      ...extra,
    },
  });

/** A trip row as the trip calls leave it; a completed one carries its fare split and is posted to the ledger. */
async function trip(estado: string, solicitado: string, fin?: string, precio?: number) {
  const completed =
    precio === undefined ? {} : { precio_final: precio, ...splitFare(precio, { porcentaje_comision: 15, porcentaje_comision_metodo: 0 }) };
  // Completed trips have a driver, whose account is dated before every figure below.
  const driver = precio === undefined ? null : (await account("conductor", "2026-01-15T12:00:00Z")).id;
  return app.db.$transaction(async (tx) => {
    const row = await tx.trip.create({
      data: {
        tipo_servicio: "auto",
        estado,
        conductor_id: driver,
        origen_direccion: "Parque Lleras",
        origen_latitud: 6.2086,
        origen_longitud: -75.5659,
        destino_direccion: "Estadio",
        destino_latitud: 6.2568,
        destino_longitud: -75.5904,
        precio_estimado: precio ?? 12000,
        distancia_km: 6,
        duracion_estimada_minutos: 18,
        fecha_solicitud: new Date(solicitado),
        ...(fin ? { fecha_fin: new Date(fin) } : {}),
        ...completed,
      },
    });
    if (precio !== undefined) await postCompletedTrip(app.server.deps, tx, row, new Date(fin!));
    return row;
  });
}

const inState = (counts: Array<{ estado: string; cantidad: number }>) =>
  Object.fromEntries(counts.filter(({ cantidad }) => cantidad > 0).map(({ estado, cantidad }) => [estado, cantidad]));

describe("platformStats", () => {
  it("counts accounts by role, the active ones, and sign-ups by Bogotá day and month; deleted accounts do not count", async () => {
    // 23:59:59.999 on Monday the 9th in Bogotá, and midnight starting Tuesday the 10th.
    await account("pasajero", "2026-03-10T04:59:59.999Z");
    await account("pasajero", "2026-03-10T05:00:00.000Z");
    // Midnight starting March 1st, and the last instant of February, in Bogotá.
    await account("conductor", "2026-03-01T05:00:00.000Z");
    await account("conductor", "2026-03-01T04:59:59.999Z", { es_activo: false });
    await account("empresa", "2026-03-04T17:00:00.000Z", { fecha_suspension: new Date("2026-03-05T00:00:00Z"), motivo_suspension: "x" });
    await account("pasajero", "2026-03-10T14:00:00.000Z", { eliminado_en: new Date("2026-03-10T14:30:00Z") });

    const { usuarios, administrador, generado_en } = await stats();
    expect(administrador).toEqual({ id: admin.id });
    expect(generado_en).toBe("2026-03-10T15:00:00.000Z");
    expect(usuarios).toEqual({
      total: 6,
      // Less the deactivated driver and the suspended company.
      activos: 4,
      pasajeros: 2,
      conductores: 2,
      administradores: 1,
      empresas: 1,
      registros_hoy: 1,
      registros_mes: 4,
      registros_por_dia: [
        { fecha: "2026-03-04", cantidad: 1 },
        { fecha: "2026-03-05", cantidad: 0 },
        { fecha: "2026-03-06", cantidad: 0 },
        { fecha: "2026-03-07", cantidad: 0 },
        { fecha: "2026-03-08", cantidad: 0 },
        { fecha: "2026-03-09", cantidad: 1 },
        { fecha: "2026-03-10", cantidad: 1 },
      ],
    });
  });

  it("counts trips by state in total and requested today, and money by the Bogotá day and month the trip completed", async () => {
    // Requested today at 09:00 and completed at 09:30.
    await trip("completado", "2026-03-10T14:00:00Z", "2026-03-10T14:30:00Z", 20000);
    // Requested at 23:30 yesterday, completed ten minutes past midnight: today's money, yesterday's trip.
    await trip("completado", "2026-03-10T04:30:00Z", "2026-03-10T05:10:00Z", 10000);
    // Completed at 23:50 yesterday: this month's money, not today's.
    await trip("completado", "2026-03-10T04:20:00Z", "2026-03-10T04:50:00Z", 8000);
    // Completed on the last evening of February.
    await trip("completado", "2026-03-01T03:00:00Z", "2026-03-01T04:00:00Z", 5000);
    await trip("cancelado", "2026-03-10T13:00:00Z");
    await trip("pendiente", "2026-03-10T14:55:00Z");
    await trip("en_curso", "2026-03-10T05:00:00Z");
    await trip("aceptado", "2026-03-09T20:00:00Z");

    const { viajes, ingresos } = await stats();
    expect(viajes.total).toBe(8);
    expect(inState(viajes.por_estado)).toEqual({ completado: 4, cancelado: 1, pendiente: 1, en_curso: 1, aceptado: 1 });
    expect(viajes.por_estado.map(({ estado }: { estado: string }) => estado)).toEqual([
      "pendiente",
      "aceptado",
      "en_ruta",
      "en_curso",
      "completado",
      "cancelado",
    ]);
    expect(viajes.activos).toBe(3);
    expect(viajes.hoy).toBe(4);
    expect(inState(viajes.hoy_por_estado)).toEqual({ completado: 1, cancelado: 1, pendiente: 1, en_curso: 1 });
    // 15 % for the platform, the rest for the drivers.
    expect(ingresos).toEqual({
      hoy: { viajes_completados: 2, bruto: 30000, comision: 4500, neto: 25500 },
      mes: { viajes_completados: 3, bruto: 38000, comision: 5700, neto: 32300 },
      total: { viajes_completados: 4, bruto: 43000, comision: 6450, neto: 36550 },
    });
  });

  it("gives the figures of a range of Bogotá days, its sign-ups day by day, and refuses a range that ends before it starts", async () => {
    await account("pasajero", "2026-03-02T05:00:00Z");
    await account("pasajero", "2026-03-04T04:59:59Z");
    await trip("completado", "2026-03-02T15:00:00Z", "2026-03-02T15:30:00Z", 10000);
    await trip("completado", "2026-03-04T15:00:00Z", "2026-03-04T15:30:00Z", 7000);
    await trip("cancelado", "2026-03-03T12:00:00Z");

    const { periodo, usuarios } = await stats({ desde: "2026-03-02", hasta: "2026-03-03" });
    expect(periodo).toEqual({
      desde: "2026-03-02T05:00:00.000Z",
      hasta: "2026-03-04T04:59:59.999Z",
      registros: 2,
      viajes: 2,
      viajes_por_estado: expect.any(Array),
      ingresos: { viajes_completados: 1, bruto: 10000, comision: 1500, neto: 8500 },
    });
    expect(inState(periodo.viajes_por_estado)).toEqual({ completado: 1, cancelado: 1 });
    expect(usuarios.registros_por_dia).toEqual([
      { fecha: "2026-03-02", cantidad: 1 },
      { fecha: "2026-03-03", cantidad: 1 },
    ]);
    // Without a range there is no period, and a long range shows its last 31 days.
    expect((await stats()).periodo).toBeNull();
    const year = await stats({ desde: "2025-01-01", hasta: "2026-03-10" });
    expect(year.usuarios.registros_por_dia).toHaveLength(31);
    expect(year.usuarios.registros_por_dia.at(-1)).toEqual({ fecha: "2026-03-10", cantidad: 0 });

    const { data } = await app.graphql(STATS, { desde: "2026-03-05", hasta: "2026-03-04" }, admin.id);
    expect(data.platformStats).toEqual({
      __typename: "ValidationError",
      message: "El campo 'hasta' debe ser posterior o igual a 'desde'",
    });
  });

  it("charts trips and money day by day (the last 7, or a range's) and hour by hour for 2 days or less, agreeing with the totals", async () => {
    const SERIES = `query ($desde: String, $hasta: String) {
      platformStats(desde: $desde, hasta: $hasta) {
        ... on EstadisticasPlataforma {
          serie { intervalo puntos { inicio viajes completados cancelados bruto comision neto } }
          periodo { ingresos { viajes_completados bruto comision neto } }
          ingresos { total { viajes_completados bruto comision neto } }
        }
      }
    }`;
    const series = async (range: { desde?: string; hasta?: string } = {}) =>
      (await app.graphql(SERIES, range, admin.id)).data.platformStats;
    // 09:00 and 09:40 on Monday the 9th in Bogotá; a cancellation at 10:15 that day; a trip on the 10th.
    await trip("completado", "2026-03-09T14:00:00Z", "2026-03-09T14:30:00Z", 20000);
    await trip("completado", "2026-03-09T14:40:00Z", "2026-03-09T15:05:00Z", 10000);
    const cancelled = await trip("cancelado", "2026-03-09T15:10:00Z");
    await app.db.trip.update({ where: { id: cancelled.id }, data: { fecha_cancelacion: new Date("2026-03-09T15:15:00Z") } });
    await trip("completado", "2026-03-10T14:00:00Z", "2026-03-10T14:20:00Z", 8000);

    const week = await series();
    expect(week.serie.intervalo).toBe("dia");
    expect(week.serie.puntos.map((p: { inicio: string }) => p.inicio)).toEqual(
      ["04", "05", "06", "07", "08", "09", "10"].map((day) => `2026-03-${day}T05:00:00.000Z`),
    );
    expect(week.serie.puntos.at(-2)).toEqual({
      inicio: "2026-03-09T05:00:00.000Z",
      viajes: 3,
      completados: 2,
      cancelados: 1,
      bruto: 30000,
      comision: 4500,
      neto: 25500,
    });
    const total = (key: string) => week.serie.puntos.reduce((sum: number, p: Record<string, number>) => sum + p[key]!, 0);
    expect({ viajes_completados: total("completados"), bruto: total("bruto"), comision: total("comision"), neto: total("neto") }).toEqual(
      week.ingresos.total,
    );

    const monday = await series({ desde: "2026-03-09", hasta: "2026-03-09" });
    expect(monday.serie.intervalo).toBe("hora");
    expect(monday.serie.puntos).toHaveLength(24);
    const hours = Object.fromEntries(
      monday.serie.puntos
        .filter((p: { viajes: number; completados: number; cancelados: number }) => p.viajes + p.completados + p.cancelados > 0)
        .map((p: { inicio: string }) => [p.inicio, p]),
    );
    expect(hours).toEqual({
      "2026-03-09T14:00:00.000Z": {
        inicio: "2026-03-09T14:00:00.000Z",
        viajes: 2,
        completados: 1,
        cancelados: 0,
        bruto: 20000,
        comision: 3000,
        neto: 17000,
      },
      "2026-03-09T15:00:00.000Z": {
        inicio: "2026-03-09T15:00:00.000Z",
        viajes: 1,
        completados: 1,
        cancelados: 1,
        bruto: 10000,
        comision: 1500,
        neto: 8500,
      },
    });
    expect((await series({ desde: "2026-03-01", hasta: "2026-03-09" })).serie).toMatchObject({
      intervalo: "dia",
      puntos: expect.any(Array),
    });
    expect((await series({ desde: "2026-03-01", hasta: "2026-03-09" })).serie.puntos).toHaveLength(9);
  });

  it("counts the drivers online, free and on a trip by vehicle type, and those free only while their documents are in force", async () => {
    await createDriver(app, { tipo: "moto" });
    const busy = await createDriver(app, { tipo: "auto" });
    await createDriver(app, { tipo: "auto" });
    await createDriver(app, { tipo: "auto", online: false });
    await submittedDriver(app);
    const passenger = await createPassenger(app);
    const requested = await requestTrip(app, passenger.id);
    const { data } = await app.graphql(`mutation ($id: Int!) { acceptTrip(trip_id: $id) { __typename } }`, { id: requested.id }, busy.id);
    expect(data.acceptTrip.__typename).toBe("Viaje");

    const { conductores } = await stats();
    // The offline driver is not counted; the one waiting for review is, among the applications.
    expect(conductores).toEqual({
      en_linea: 3,
      disponibles: 2,
      en_viaje: 1,
      en_revision: 1,
      aprobados: 4,
      por_tipo_vehiculo: [
        { tipo_vehiculo: "moto", en_linea: 1, disponibles: 1, en_viaje: 0 },
        { tipo_vehiculo: "auto", en_linea: 2, disponibles: 1, en_viaje: 1 },
        { tipo_vehiculo: "mototaxi", en_linea: 0, disponibles: 0, en_viaje: 0 },
      ],
    });

    // The helpers' documents last a year: past that, the free drivers are still connected but cannot be offered trips.
    clock.advance(400 * 24 * 3600 * 1000);
    // A session lasts days: a new administrator asks.
    admin = await newAdmin(app);
    const later = (await stats()).conductores;
    expect(later).toMatchObject({ en_linea: 3, disponibles: 0, en_viaje: 1 });
  });

  it("shows the latest administrator actions as sentences, and is for administrators only", async () => {
    const passenger = await createPassenger(app);
    await app.legacy("POST", "/admin/suspender_usuario.php", { admin_id: admin.id, user_id: passenger.id, motivo: "Fraude con tarjetas" });
    const { actividad_reciente } = await stats();
    expect(actividad_reciente).toEqual([
      { accion: "suspender_usuario", descripcion: `Suspendió al usuario ${passenger.id}: Fraude con tarjetas` },
    ]);

    const driver = await createDriver(app);
    const { data, errors } = await app.graphql(STATS, {}, driver.id);
    expect(errors).toBeUndefined();
    expect(data.platformStats).toEqual({ __typename: "ForbiddenError", message: "Esta operación es solo para administradores" });
  });
});
