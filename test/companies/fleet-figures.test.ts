import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.js";
import { FixedClock } from "../support/clock.js";
import { activeCompany, field, fleetDriver, tripRow } from "../support/companies.js";
import { newAdmin } from "../support/drivers.js";
import { post } from "../support/fixtures.js";
import { localDate } from "../../src/domain/time.js";
import { completedTrip, createPassenger, requestTrip } from "../support/trips.js";

/** A company's figures, each against trips made for it on Bogotá calendar days (UTC-5). */

// Tuesday 2026-03-10, 10:00 in Bogotá; the company's share is set a month before.
const clock = new FixedClock("2026-02-19T15:00:00.000Z");
let app: TestApp;
let admin: { id: number };
let a: Awaited<ReturnType<typeof activeCompany>>;
let b: Awaited<ReturnType<typeof activeCompany>>;

beforeAll(async () => {
  // Sessions opened before the clock moves on must outlast it.
  app = await createTestApp({ clock, env: { TOKEN_TTL_S: String(365 * 24 * 3600) } });
  admin = await newAdmin(app);
  a = await activeCompany(app, admin.id, "Flota Aburrá");
  b = await activeCompany(app, admin.id, "Flota Oriente");
  const share = await field(
    app,
    `mutation ($id: Int!) { setCompanyShare(id: $id, porcentaje: 20) { __typename } }`,
    { id: a.company.id },
    admin.id,
  );
  expect(share).toEqual({ __typename: "Empresa" });

  clock.set("2026-02-20T15:00:00.000Z");
  await completedTrip(app, await fleetDriver(app, a.company.id), {}, 10_000);

  clock.set("2026-03-10T15:00:00.000Z");
  const driver = await fleetDriver(app, a.company.id);
  await completedTrip(app, driver, {}, 20_000);
  await completedTrip(app, driver, { metodo_pago: "billetera_digital" }, 30_000);
  const cancelled = await requestTrip(app, (await createPassenger(app)).id);
  expect((await post(app, "/viajes/accept_trip.php", { trip_id: cancelled.id, conductor_id: driver.id })).status).toBe(200);
  expect((await post(app, "/viajes/cancel_trip.php", { trip_id: cancelled.id, motivo: "Prueba" })).status).toBe(200);
  await completedTrip(app, await fleetDriver(app, b.company.id), {}, 50_000);
});
afterAll(() => app.close());

const MONEY = "bruto comision comision_empresa neto_plataforma neto";
const PERIOD = `desde hasta viajes viajes_por_estado { estado cantidad } ingresos { viajes_completados ${MONEY} }`;
const FIGURES = `query ($e: Int, $desde: String, $hasta: String) {
  companyFigures(empresa_id: $e, desde: $desde, hasta: $hasta) {
    __typename
    ... on Error { code message }
    ... on CifrasEmpresa {
      empresa { id nombre }
      generado_en
      hoy { ${PERIOD} }
      mes { ${PERIOD} }
      periodo { ${PERIOD} }
      serie { intervalo puntos { inicio viajes completados cancelados ${MONEY} } }
    }
  }
}`;

const figures = (variables: Record<string, unknown>, as = a.manager.id) => field(app, FIGURES, variables, as);
const state = (counts: Array<{ estado: string; cantidad: number }>, estado: string) => counts.find((c) => c.estado === estado)?.cantidad;

// Cash 20,000: commission 3,000, the company's 20% of it 600. Wallet 30,000: 4,500 and 750 for the
// payment, the company's 900 of the 4,500.
const TODAY = { viajes_completados: 2, bruto: 50_000, comision: 8250, comision_empresa: 1500, neto_plataforma: 6750, neto: 41_750 };

describe("companyFigures", () => {
  it("counts today's and this month's trips by state and their money, split so that it adds up", async () => {
    const mine = await figures({});
    expect(mine.empresa).toEqual({ id: a.company.id, nombre: "Flota Aburrá" });
    expect(mine.periodo).toBeNull();
    for (const period of [mine.hoy, mine.mes]) {
      expect(period.viajes).toBe(3);
      expect(state(period.viajes_por_estado, "completado")).toBe(2);
      expect(state(period.viajes_por_estado, "cancelado")).toBe(1);
      expect(period.ingresos).toEqual(TODAY);
      const { bruto, comision, comision_empresa, neto_plataforma, neto } = period.ingresos;
      expect(neto_plataforma + comision_empresa + neto).toBe(bruto);
      expect(neto_plataforma + comision_empresa).toBe(comision);
    }
    expect(mine.hoy).toMatchObject({ desde: "2026-03-10T05:00:00.000Z", hasta: "2026-03-11T04:59:59.999Z" });
    // This month read from a chart that covers it, rather than on its own, is the same.
    const march = await figures({ desde: "2026-03-01", hasta: "2026-03-10" });
    expect(march.mes).toEqual(mine.mes);
    expect(march.periodo.ingresos).toEqual(TODAY);
    // What the ledger posted to the company's account is its share.
    const account = await app.db.ledgerAccount.findUniqueOrThrow({ where: { empresa_id: a.company.id } });
    expect(account.saldo).toBe(TODAY.comision_empresa + 300);
  });

  it("counts only the company's own trips, for its managers and administrators naming it", async () => {
    expect((await figures({}, b.manager.id)).hoy.ingresos).toMatchObject({ viajes_completados: 1, bruto: 50_000, comision_empresa: 0 });
    expect((await figures({ e: a.company.id }, admin.id)).hoy.ingresos).toEqual(TODAY);
    expect(await figures({}, admin.id)).toMatchObject({ __typename: "ValidationError", message: expect.stringMatching(/empresa_id/) });
    expect(await figures({ e: a.company.id }, b.manager.id)).toMatchObject({ __typename: "ForbiddenError" });
  });

  it("gives a range's figures and charts it day by day, the points adding up to the range", async () => {
    const february = await figures({ desde: "2026-02-01", hasta: "2026-02-28" });
    expect(february.periodo).toMatchObject({ desde: "2026-02-01T05:00:00.000Z", hasta: "2026-03-01T04:59:59.999Z", viajes: 1 });
    expect(february.periodo.ingresos).toEqual({
      viajes_completados: 1,
      bruto: 10_000,
      comision: 1500,
      comision_empresa: 300,
      neto_plataforma: 1200,
      neto: 8500,
    });
    expect(february.serie.intervalo).toBe("dia");
    expect(february.serie.puntos).toHaveLength(28);
    const points = february.serie.puntos as Array<Record<string, number | string>>;
    const { viajes_completados, ...money } = february.periodo.ingresos;
    expect(points.filter((point) => point.viajes !== 0)).toEqual([
      { inicio: "2026-02-20T05:00:00.000Z", viajes: 1, completados: viajes_completados, cancelados: 0, ...money },
    ]);
    expect(await figures({ desde: "2026-03-10", hasta: "2026-03-01" })).toMatchObject({ __typename: "ValidationError" });
  });

  it("reads its chart in as many statements for 28 points as for 7, or 48 hours", async () => {
    await figures({});
    const statements = async (range: Record<string, string>) => {
      const before = app.queries.length;
      expect((await figures(range)).serie.puntos.length).toBeGreaterThan(0);
      return app.queries.length - before;
    };
    const week = await statements({ desde: "2026-02-01", hasta: "2026-02-07" });
    expect(await statements({ desde: "2026-02-01", hasta: "2026-02-28" })).toBe(week);
    expect(await statements({ desde: "2026-02-19", hasta: "2026-02-20" })).toBe(week);
  });

  it("reads a range longer than its chart on its own: the chart keeps its last 31 days", async () => {
    const quarter = await figures({ desde: "2026-01-01", hasta: "2026-03-10" });
    expect(quarter.periodo).toMatchObject({ viajes: 4, ingresos: { viajes_completados: 3, bruto: 60_000, comision_empresa: 1800 } });
    expect(quarter.serie.puntos).toHaveLength(31);
    expect(quarter.serie.puntos[0].inicio).toBe("2026-02-08T05:00:00.000Z");
  });

  it("charts the last 7 days without a range, and a day hour by hour", async () => {
    const week = (await figures({})).serie;
    expect(week.intervalo).toBe("dia");
    expect(week.puntos.map((point: { inicio: string }) => point.inicio.slice(0, 10))).toEqual([
      "2026-03-04",
      "2026-03-05",
      "2026-03-06",
      "2026-03-07",
      "2026-03-08",
      "2026-03-09",
      "2026-03-10",
    ]);
    const { viajes_completados, ...money } = TODAY;
    expect(week.puntos.at(-1)).toMatchObject({ viajes: 3, completados: viajes_completados, cancelados: 1, ...money });

    const day = (await figures({ desde: "2026-03-10", hasta: "2026-03-10" })).serie;
    expect(day.intervalo).toBe("hora");
    expect(day.puntos).toHaveLength(24);
    const busy = day.puntos.filter((point: { viajes: number }) => point.viajes > 0);
    // Everything happened at 10:00 in Bogotá: the eleventh hour of the day.
    expect(busy).toEqual([{ inicio: "2026-03-10T15:00:00.000Z", viajes: 3, completados: 2, cancelados: 1, ...money }]);
  });

  it("counts a cancellation in the hour its trip was requested", async () => {
    clock.set("2026-04-14T04:50:00.000Z");
    const driver = await fleetDriver(app, a.company.id);
    const trip = await requestTrip(app, (await createPassenger(app)).id);
    expect((await post(app, "/viajes/accept_trip.php", { trip_id: trip.id, conductor_id: driver.id })).status).toBe(200);
    clock.set("2026-04-14T05:10:00.000Z");
    expect((await post(app, "/viajes/cancel_trip.php", { trip_id: trip.id, motivo: "Prueba" })).status).toBe(200);
    const night = await figures({ desde: "2026-04-13", hasta: "2026-04-14" });
    expect(night.serie.intervalo).toBe("hora");
    const busy = night.serie.puntos.filter((point: { viajes: number; cancelados: number }) => point.viajes + point.cancelados > 0);
    expect(busy).toMatchObject([{ inicio: "2026-04-14T04:00:00.000Z", viajes: 1, cancelados: 1 }]);
    expect(state(night.periodo.viajes_por_estado, "cancelado")).toBe(1);
  });

  it("adds up a fleet's money past what a 32-bit Int holds", async () => {
    clock.set("2026-05-20T15:00:00.000Z");
    const driver = await fleetDriver(app, a.company.id, { online: false });
    const fare = { precio_final: 2_000_000_000, comision_plataforma: 300_000_000, comision_metodo_pago: 0, comision_empresa: 60_000_000 };
    for (const _ of [1, 2]) {
      await tripRow(app, {
        ...fare,
        ganancia_conductor: 1_700_000_000,
        estado: "completado",
        conductor_id: driver.id,
        empresa_id: a.company.id,
        fecha_solicitud: clock.now(),
        fecha_fin: clock.now(),
      });
    }
    const may = await figures({ desde: "2026-05-20", hasta: "2026-05-20" });
    expect(may.periodo.ingresos).toEqual({
      viajes_completados: 2,
      bruto: 4_000_000_000,
      comision: 600_000_000,
      comision_empresa: 120_000_000,
      neto_plataforma: 480_000_000,
      neto: 3_400_000_000,
    });
  });

  it("counts a range given in instants to the minute: its whole days from the daily totals, its ends from the trips", async () => {
    // The first trip is at 10:00 on 20 February and three more at 10:00 on 10 March (Bogotá).
    const range = async (desde: string, hasta: string) => (await figures({ desde, hasta })).periodo;
    expect(await range("2026-02-20T09:30:00-05:00", "2026-03-10T10:30:00-05:00")).toMatchObject({
      viajes: 4,
      ingresos: { viajes_completados: 3, bruto: 60_000 },
    });
    expect(await range("2026-02-20T10:30:00-05:00", "2026-03-10T10:30:00-05:00")).toMatchObject({ viajes: 3 });
    expect(await range("2026-02-20T09:30:00-05:00", "2026-03-10T09:30:00-05:00")).toMatchObject({
      viajes: 1,
      ingresos: { viajes_completados: 1, bruto: 10_000 },
    });
    expect(await range("2026-03-10T09:30:00-05:00", "2026-03-10T10:30:00-05:00")).toMatchObject({ viajes: 3 });
  });

  it("keeps each company's daily totals equal to its trips, whatever writes them", async () => {
    /** The totals the trips themselves add up to, and those kept, without the days a write emptied. */
    const compare = async () => {
      const trips = await app.db.trip.findMany({ where: { empresa_id: { not: null } } });
      const requested = new Map<string, number>();
      const completed = new Map<string, number[]>();
      for (const trip of trips) {
        const key = `${trip.empresa_id} ${localDate(trip.fecha_solicitud)} ${trip.estado}`;
        requested.set(key, (requested.get(key) ?? 0) + 1);
        if (trip.estado !== "completado" || !trip.fecha_fin) continue;
        const day = `${trip.empresa_id} ${localDate(trip.fecha_fin)}`;
        const money = [1, trip.precio_final ?? 0, trip.comision_plataforma ?? 0, trip.comision_metodo_pago ?? 0];
        const sum = completed.get(day) ?? [0, 0, 0, 0, 0, 0];
        completed.set(
          day,
          [...money, trip.comision_empresa ?? 0, trip.ganancia_conductor ?? 0].map((value, i) => sum[i]! + value),
        );
      }
      const keptRequested = await app.db.companyDayTrips.findMany({ where: { cantidad: { not: 0 } } });
      const keptCompleted = await app.db.companyDayIncome.findMany({ where: { viajes: { not: 0 } } });
      expect(new Map(keptRequested.map((row) => [`${row.empresa_id} ${row.dia} ${row.estado}`, row.cantidad]))).toEqual(requested);
      expect(
        new Map(
          keptCompleted.map((row) => [
            `${row.empresa_id} ${row.dia}`,
            [
              row.viajes,
              row.precio_final,
              row.comision_plataforma,
              row.comision_metodo_pago,
              row.comision_empresa,
              row.ganancia_conductor,
            ].map(Number),
          ]),
        ),
      ).toEqual(completed);
      return trips.length;
    };
    expect(await compare()).toBeGreaterThan(5);

    // Writes that no operation makes, straight to the table: a completed trip moved to the other
    // company and to another day, its fare changed, a cancelled trip completed, a trip deleted.
    const [moved, cancelled, deleted] = await Promise.all([
      app.db.trip.findFirstOrThrow({ where: { empresa_id: a.company.id, estado: "completado" } }),
      app.db.trip.findFirstOrThrow({ where: { empresa_id: a.company.id, estado: "cancelado" } }),
      app.db.trip.findFirstOrThrow({ where: { empresa_id: b.company.id } }),
    ]);
    await app.db.trip.update({
      where: { id: moved.id },
      data: { empresa_id: b.company.id, fecha_solicitud: new Date("2026-01-05T12:00:00Z"), fecha_fin: new Date("2026-01-06T03:00:00Z") },
    });
    await app.db.trip.update({ where: { id: moved.id }, data: { precio_final: 99_999, comision_empresa: 7 } });
    await app.db.trip.update({
      where: { id: cancelled.id },
      data: { estado: "completado", fecha_fin: new Date("2026-03-11T04:59:00Z"), precio_final: 1000, ganancia_conductor: 850 },
    });
    await app.db.trip.update({ where: { id: cancelled.id }, data: { empresa_id: null } });
    await app.db.trip.delete({ where: { id: deleted.id } });
    await compare();
  });
});
