import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.js";
import { FixedClock } from "../support/clock.js";
import { newAdmin } from "../support/drivers.js";
import { completedTrip, createDriver } from "../support/trips.js";

// Tuesday 2026-03-10, 10:00 in Bogotá.
const clock = new FixedClock("2026-03-10T15:00:00.000Z");
let app: TestApp;
let admin: { id: number };
beforeAll(async () => {
  app = await createTestApp({ clock });
  admin = await newAdmin(app);
});
afterAll(() => app.close());

const ride = (driver: { id: number }, metodo_pago: string, precio: number) => completedTrip(app, driver, { metodo_pago }, precio);

const REPORT = `query ($desde: String!, $hasta: String!) {
  settlementReport(desde: $desde, hasta: $hasta) {
    ... on ConciliacionDinero {
      viajes_completados bruto cobrado_efectivo cobrado_plataforma comision comision_plataforma comision_metodo_pago neto
      pagado_a_conductores deuda_de_conductores saldo_de_conductores cuadra problemas
    }
    ... on Error { message }
  }
}`;
const report = async (desde: string, hasta: string) => (await app.graphql(REPORT, { desde, hasta }, admin.id)).data.settlementReport;

describe("settlementReport", () => {
  it("accounts for a range's fares, commissions and payouts, what drivers owe and are owed, and says the ledger balances", async () => {
    const cash = await createDriver(app);
    const wallet = await createDriver(app);
    await ride(cash, "efectivo", 20_000);
    await ride(wallet, "billetera_digital", 40_000);
    const account = await app.db.payoutAccount.create({ data: { conductor_id: wallet.id, tipo: "efectivo", verificada_en: clock.now() } });
    const REQUEST = `mutation ($cuenta: Int!) { requestPayout(monto: 30000, cuenta_retiro_id: $cuenta) { ... on Retiro { id } } }`;
    const { id } = (await app.graphql(REQUEST, { cuenta: account.id }, wallet.id)).data.requestPayout;
    const REVIEW = `mutation ($id: Int!, $accion: AccionRetiro!) { reviewPayout(accion: $accion, retiro_id: $id, referencia_pago: "TRF") { __typename } }`;
    await app.graphql(REVIEW, { id, accion: "aprobar" }, admin.id);
    await app.graphql(REVIEW, { id, accion: "pagar" }, admin.id);

    // Cash: 3,000 commission owed. Wallet: 6,000 + 1,000 commission, 33,000 for the driver, 30,000 of it paid out.
    expect(await report("2026-03-10", "2026-03-10")).toEqual({
      viajes_completados: 2,
      bruto: 60_000,
      cobrado_efectivo: 20_000,
      cobrado_plataforma: 40_000,
      comision: 10_000,
      comision_plataforma: 9000,
      comision_metodo_pago: 1000,
      neto: 50_000,
      pagado_a_conductores: 30_000,
      deuda_de_conductores: 3000,
      saldo_de_conductores: 3000,
      cuadra: true,
      problemas: [],
    });
    const ENTRIES = `query ($id: Int) {
      ledgerEntries(conductor_id: $id) { ... on PaginaAsientos { items { clave movimientos { cuenta concepto monto } } pagination { total } } }
    }`;
    const entries = (await app.graphql(ENTRIES, { id: wallet.id }, admin.id)).data.ledgerEntries;
    // Paying the payout moves the platform's accounts, not the driver's: their entries are the trip and the reservation.
    expect(entries.pagination.total).toBe(2);
    expect(entries.items.map((entry: { clave: string }) => entry.clave)).toEqual([
      `retiro:${id}:reserva`,
      expect.stringMatching(/^viaje:\d+$/),
    ]);
    expect(entries.items[0].movimientos).toEqual([
      { cuenta: `conductor:${wallet.id}`, concepto: "retiro", monto: -30_000 },
      { cuenta: "plataforma:retiros_por_pagar", concepto: "retiro", monto: 30_000 },
    ]);
    expect(await report("2026-03-09", "2026-03-09")).toMatchObject({ viajes_completados: 0, bruto: 0, pagado_a_conductores: 0 });
    expect((await report("2026-03-10", "2026-03-09")).message).toBe("El campo 'hasta' debe ser posterior o igual a 'desde'");
  });
});
