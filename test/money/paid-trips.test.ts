import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ledgerProblems } from "../../src/domain/money/ledger.js";
import { createTestApp, type TestApp } from "../support/app.js";
import { newAdmin } from "../support/drivers.js";
import { post } from "../support/fixtures.js";
import { completedTrip, createDriver, createPassenger, requestTrip } from "../support/trips.js";

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(() => app.close());

/** A trip requested with these fields, taken by a fresh driver and completed at `precio`. */
async function ride(fields: Record<string, unknown>, precio: number | string) {
  const driver = await createDriver(app);
  return { driver, trip: await completedTrip(app, driver, fields, precio) };
}

/** The lines of the trip's entry as account, concept and amount. */
async function entryOf(tripId: number) {
  const entry = await app.db.ledgerEntry.findUniqueOrThrow({
    where: { clave: `viaje:${tripId}` },
    include: { movimientos: { include: { cuenta: true }, orderBy: { id: "asc" } } },
  });
  return entry.movimientos.map((line) => [line.cuenta.codigo, line.concepto, line.monto]).sort();
}

const balance = async (codigo: string) => (await app.db.ledgerAccount.findUnique({ where: { codigo } }))?.saldo ?? 0;

describe("a trip's payment", () => {
  it("is cash unless the passenger says otherwise, and the driver who collected it owes the commission", async () => {
    const { driver, trip } = await ride({}, 20_000);
    expect(trip).toMatchObject({ metodo_pago: "efectivo", precio_final: 20_000 });
    expect(await app.db.trip.findUniqueOrThrow({ where: { id: trip.id } })).toMatchObject({
      porcentaje_comision: 15,
      porcentaje_comision_metodo: 0,
      comision_plataforma: 3000,
      comision_metodo_pago: 0,
      ganancia_conductor: 17_000,
      referencia_pago: null,
    });
    expect(await entryOf(trip.id)).toEqual(
      [
        [`conductor:${driver.id}`, "efectivo_cobrado", -20_000],
        [`conductor:${driver.id}`, "ganancia", 17_000],
        ["plataforma:comisiones", "comision", 3000],
      ].sort(),
    );
    expect(await balance(`conductor:${driver.id}`)).toBe(-3000);
  });

  it("by digital wallet is collected by the platform, which owes the driver the fare less both commissions", async () => {
    const { driver, trip } = await ride({ metodo_pago: "billetera_digital" }, 20_000);
    expect(trip.metodo_pago).toBe("billetera_digital");
    expect(await app.db.trip.findUniqueOrThrow({ where: { id: trip.id } })).toMatchObject({
      porcentaje_comision: 15,
      porcentaje_comision_metodo: 2.5,
      comision_plataforma: 3000,
      comision_metodo_pago: 500,
      ganancia_conductor: 16_500,
      referencia_pago: `local-billetera_digital-${trip.id}`,
    });
    expect(await entryOf(trip.id)).toEqual(
      [
        ["recaudo:billetera_digital", "recaudo", -20_000],
        [`conductor:${driver.id}`, "ganancia", 16_500],
        ["plataforma:comisiones", "comision", 3000],
        ["plataforma:comisiones_pago", "comision_metodo", 500],
      ].sort(),
    );
    expect(await balance(`conductor:${driver.id}`)).toBe(16_500);
  });

  it("shows administrators, and nobody else, where the fare went", async () => {
    const { driver, trip } = await ride({ metodo_pago: "billetera_digital" }, 20_000);
    const admin = await newAdmin(app);
    const read = async (as: number) => {
      const { data } = await app.graphql(
        `query ($id: Int!) {
          trip(trip_id: $id) {
            ... on Viaje { precio_final comision_plataforma comision_metodo_pago ganancia_conductor porcentaje_comision porcentaje_comision_metodo }
          }
        }`,
        { id: trip.id },
        as,
      );
      return data.trip;
    };
    const split = await read(admin.id);
    expect(split).toEqual({
      precio_final: 20_000,
      comision_plataforma: 3000,
      comision_metodo_pago: 500,
      ganancia_conductor: 16_500,
      porcentaje_comision: 15,
      porcentaje_comision_metodo: 2.5,
    });
    expect(split.comision_plataforma + split.comision_metodo_pago + split.ganancia_conductor).toBe(split.precio_final);
    const hidden = { comision_plataforma: null, comision_metodo_pago: null, porcentaje_comision: null, porcentaje_comision_metodo: null };
    expect(await read(driver.id)).toEqual({ precio_final: 20_000, ganancia_conductor: 16_500, ...hidden });
    expect(await read(trip.usuario_id)).toEqual({ precio_final: 20_000, ganancia_conductor: null, ...hidden });
  });

  it("is shown to the drivers offered the request, so they know whether to collect it", async () => {
    const driver = await createDriver(app);
    const trip = await requestTrip(app, (await createPassenger(app)).id, { metodo_pago: "tarjeta" });
    const pending = await app.legacy("GET", "/conductor/get_pending_requests.php", { conductor_id: String(driver.id) });
    const request = pending.body.solicitudes.find((solicitud: { id: number }) => solicitud.id === trip.id);
    expect(request).toMatchObject({ metodo_pago: "tarjeta", precio_estimado: trip.precio_estimado });
    await post(app, "/viajes/cancel_trip.php", { trip_id: trip.id, motivo: "Ya no" });
  });

  it("is kept in whole pesos that add up exactly, whatever the price sent", async () => {
    const { trip } = await ride({ metodo_pago: "tarjeta" }, "12345.6");
    const stored = await app.db.trip.findUniqueOrThrow({ where: { id: trip.id } });
    expect(stored.precio_final).toBe(12_346);
    // 15 % is 1851.9 and 17.5 % is 2160.55: 1852 and 2161 - 1852.
    expect(stored).toMatchObject({ comision_plataforma: 1852, comision_metodo_pago: 309, ganancia_conductor: 10_185 });
    expect(stored.comision_plataforma! + stored.comision_metodo_pago! + stored.ganancia_conductor!).toBe(stored.precio_final);
    expect(await ledgerProblems(app.db)).toEqual([]);
  });

  it("keeps the commissions of the rates when the trip was requested", async () => {
    const driver = await createDriver(app);
    const trip = await requestTrip(app, (await createPassenger(app)).id, { metodo_pago: "tarjeta" });
    await app.db.pricingRate.update({ where: { tipo_vehiculo: "auto" }, data: { comision_plataforma: 30, comision_metodo_pago: 5 } });
    try {
      await post(app, "/viajes/accept_trip.php", { trip_id: trip.id, conductor_id: driver.id });
      await post(app, "/viajes/start_trip.php", { trip_id: trip.id });
      await post(app, "/viajes/complete_trip.php", { trip_id: trip.id, precio_final: 10_000 });
      expect(await app.db.trip.findUniqueOrThrow({ where: { id: trip.id } })).toMatchObject({
        comision_plataforma: 1500,
        comision_metodo_pago: 250,
        ganancia_conductor: 8250,
      });
      const later = await requestTrip(app, (await createPassenger(app)).id, { metodo_pago: "tarjeta" });
      expect(await app.db.trip.findUniqueOrThrow({ where: { id: later.id } })).toMatchObject({
        porcentaje_comision: 30,
        porcentaje_comision_metodo: 5,
      });
    } finally {
      await app.db.pricingRate.update({ where: { tipo_vehiculo: "auto" }, data: { comision_plataforma: 15, comision_metodo_pago: 2.5 } });
    }
  });

  it("posts nothing for a cancelled trip, and once for a completed one completed again", async () => {
    const driver = await createDriver(app);
    const cancelled = await requestTrip(app, (await createPassenger(app)).id);
    await post(app, "/viajes/accept_trip.php", { trip_id: cancelled.id, conductor_id: driver.id });
    expect((await post(app, "/viajes/cancel_trip.php", { trip_id: cancelled.id, motivo: "Ya no" })).status).toBe(200);
    expect(await app.db.ledgerEntry.count({ where: { viaje_id: cancelled.id } })).toBe(0);

    const { trip } = await ride({}, 15_000);
    const again = await post(app, "/viajes/complete_trip.php", { trip_id: trip.id, precio_final: 99_000 });
    expect(again.status).toBe(400);
    expect(await app.db.ledgerEntry.count({ where: { viaje_id: trip.id } })).toBe(1);
  });

  it("refuses a method nobody takes, in Spanish, and creates nothing", async () => {
    const passenger = await createPassenger(app);
    await createDriver(app);
    const refused = await app.legacy("POST", "/viajes/create_trip.php", {
      usuario_id: passenger.id,
      tipo_servicio: "auto",
      metodo_pago: "bitcoin",
      origen: { direccion: "Parque Lleras", latitud: 6.2086, longitud: -75.5659 },
      destino: { direccion: "Estadio", latitud: 6.2568, longitud: -75.5904 },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toMatch(/^El campo 'metodo_pago' debe ser uno de: efectivo, billetera_digital, tarjeta/);
    expect(await app.db.trip.count({ where: { usuario_id: passenger.id } })).toBe(0);
  });
});

describe("the ledger", () => {
  it("cannot be changed or deleted, only added to", async () => {
    await ride({}, 10_000);
    await expect(app.db.ledgerLine.updateMany({ data: { monto: 0 } })).rejects.toThrow(/ledger/);
    await expect(app.db.ledgerLine.deleteMany({})).rejects.toThrow(/ledger/);
    await expect(app.db.ledgerEntry.updateMany({ data: { descripcion: "otra" } })).rejects.toThrow(/ledger/);
    await expect(app.db.ledgerEntry.deleteMany({})).rejects.toThrow(/ledger/);
    expect(await ledgerProblems(app.db)).toEqual([]);
  });
});

describe("without a payment provider (PAYMENT_PROVIDER=none)", () => {
  let cashOnly: TestApp;
  beforeAll(async () => {
    cashOnly = await createTestApp({ env: { PAYMENT_PROVIDER: "none" } });
  });
  afterAll(() => cashOnly.close());

  it("refuses wallet and card trips with a clear message, never turning them into cash, and takes cash", async () => {
    const passenger = await createPassenger(cashOnly);
    await createDriver(cashOnly);
    for (const [metodo_pago, name] of [
      ["billetera_digital", "billetera digital"],
      ["tarjeta", "tarjeta"],
    ]) {
      const refused = await cashOnly.legacy("POST", "/viajes/create_trip.php", {
        usuario_id: passenger.id,
        tipo_servicio: "auto",
        metodo_pago,
        origen: { direccion: "Parque Lleras", latitud: 6.2086, longitud: -75.5659 },
        destino: { direccion: "Estadio", latitud: 6.2568, longitud: -75.5904 },
      });
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual({
        success: false,
        message: `El campo 'metodo_pago' no admite ${name} por ahora; elige efectivo`,
      });
    }
    expect(await cashOnly.db.trip.count({ where: { usuario_id: passenger.id } })).toBe(0);
    expect((await requestTrip(cashOnly, passenger.id, { metodo_pago: "efectivo" })).metodo_pago).toBe("efectivo");
  });
});

describe("driverBalance", () => {
  const BALANCE = `query ($id: Int) { driverBalance(conductor_id: $id) { ... on SaldoConductor { conductor_id saldo disponible deuda } ... on Error { message } } }`;

  it("shows a driver what they are owed or owe, from the ledger", async () => {
    const { driver } = await ride({}, 20_000);
    const owes = await app.graphql(BALANCE, {}, driver.id);
    expect(owes.data.driverBalance).toEqual({ conductor_id: driver.id, saldo: -3000, disponible: 0, deuda: 3000 });
    const { driver: paid } = await ride({ metodo_pago: "tarjeta" }, 10_000);
    const owed = await app.graphql(BALANCE, {}, paid.id);
    expect(owed.data.driverBalance).toEqual({ conductor_id: paid.id, saldo: 8250, disponible: 8250, deuda: 0 });
    const other = await app.graphql(BALANCE, { id: paid.id }, driver.id);
    expect(other.data.driverBalance.message).toMatch(/^Solo /);
  });
});
