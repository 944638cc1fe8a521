import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ledgerProblems } from "../../src/domain/money/ledger.js";
import { localDate } from "../../src/domain/time.js";
import { createTestApp, type TestApp } from "../support/app.js";
import { activeCompany, field } from "../support/companies.js";
import { newAdmin } from "../support/drivers.js";
import { post } from "../support/fixtures.js";
import { completedTrip, createDriver, createPassenger, requestTrip } from "../support/trips.js";

let app: TestApp;
let admin: { id: number };
beforeAll(async () => {
  app = await createTestApp();
  admin = await newAdmin(app);
});
afterAll(() => app.close());

const SHARE = `mutation ($id: Int!, $p: Float!) { setCompanyShare(id: $id, porcentaje: $p) { __typename ... on Empresa { porcentaje_comision } ... on Error { code message } } }`;
const BALANCE = `query ($e: Int) { companyBalance(empresa_id: $e) { __typename ... on SaldoEmpresa { saldo disponible en_retiro total_retirado } ... on Error { code } } }`;
const AFFILIATE = `mutation ($id: Int!, $e: Int) { updateUser(user_id: $id, input: { empresa_id: $e }) { __typename } }`;

/** A company with a share, and a driver of it online. */
async function fleet(porcentaje: number) {
  const { manager, company } = await activeCompany(app, admin.id);
  expect(await field(app, SHARE, { id: company.id, p: porcentaje }, admin.id)).toEqual({
    __typename: "Empresa",
    porcentaje_comision: porcentaje,
  });
  const driver = await createDriver(app);
  await field(app, AFFILIATE, { id: driver.id, e: company.id }, admin.id);
  return { manager, company, driver };
}

const lines = async (tripId: number) =>
  (
    await app.db.ledgerLine.findMany({
      where: { asiento: { viaje_id: tripId } },
      include: { cuenta: { select: { codigo: true } } },
      orderBy: { id: "asc" },
    })
  ).map((line) => [line.cuenta.codigo, line.concepto, line.monto]);

describe("a company's share of the commission", () => {
  it("is split off the platform's commission in whole pesos, into the company's account, on a cash trip at once", async () => {
    const { manager, company, driver } = await fleet(33.33);
    const trip = await completedTrip(app, driver, { metodo_pago: "efectivo" }, 20_001);
    const stored = await app.db.trip.findUniqueOrThrow({ where: { id: trip.id } });
    // 15 % of 20,001 is 3,000; a third of that (33.33 %) is 1,000.
    expect(stored).toMatchObject({ empresa_id: company.id, porcentaje_empresa: 33.33, comision_plataforma: 3000, comision_empresa: 1000 });
    expect(await lines(trip.id)).toEqual(
      expect.arrayContaining([
        [`empresa:${company.id}`, "comision_empresa", 1000],
        ["plataforma:comisiones", "comision", 2000],
        [`conductor:${driver.id}`, "efectivo_cobrado", -20_001],
        [`conductor:${driver.id}`, "ganancia", 17_001],
      ]),
    );
    // Cash: the driver owes the whole commission, and the company's share is payable already.
    expect(await field(app, BALANCE, {}, manager.id)).toEqual({
      __typename: "SaldoEmpresa",
      saldo: 1000,
      disponible: 1000,
      en_retiro: 0,
      total_retirado: 0,
    });
    expect(await ledgerProblems(app.db)).toEqual([]);
  });

  it("is the one in force when the trip was requested, for the company the driver had when accepting", async () => {
    const { company, driver } = await fleet(50);
    const other = await fleet(10);
    const trip = await requestTrip(app, (await createPassenger(app)).id);
    // Changed after the request: the trip keeps 50 %.
    await field(app, SHARE, { id: company.id, p: 80 }, admin.id);
    expect((await post(app, "/viajes/accept_trip.php", { trip_id: trip.id, conductor_id: driver.id })).status).toBe(200);
    // The driver moves to another company mid-trip: the trip stays the first company's.
    await field(app, AFFILIATE, { id: driver.id, e: other.company.id }, admin.id);
    await post(app, "/viajes/start_trip.php", { trip_id: trip.id });
    await post(app, "/viajes/complete_trip.php", { trip_id: trip.id, precio_final: 10_000 });
    expect(await app.db.trip.findUniqueOrThrow({ where: { id: trip.id } })).toMatchObject({
      empresa_id: company.id,
      porcentaje_empresa: 50,
      comision_empresa: 750,
    });
    expect(await lines(trip.id)).toContainEqual([`empresa:${company.id}`, "comision_empresa", 750]);
  });

  it("is nothing for a driver of no company, and 0 % posts no company line", async () => {
    const lone = await createDriver(app);
    const trip = await completedTrip(app, lone, {}, 10_000);
    expect(await app.db.trip.findUniqueOrThrow({ where: { id: trip.id } })).toMatchObject({ empresa_id: null, comision_empresa: null });
    const { company, driver } = await fleet(0);
    const zero = await completedTrip(app, driver, {}, 10_000);
    expect(await app.db.trip.findUniqueOrThrow({ where: { id: zero.id } })).toMatchObject({ empresa_id: company.id, comision_empresa: 0 });
    expect((await lines(zero.id)).filter(([codigo]) => codigo === `empresa:${company.id}`)).toEqual([]);
  });

  it("is set by administrators only, between 0 and 100 with two decimals, and audited", async () => {
    const { manager, company } = await activeCompany(app, admin.id);
    expect(await field(app, SHARE, { id: company.id, p: 12.5 }, manager.id)).toMatchObject({ code: "FORBIDDEN" });
    expect(await field(app, SHARE, { id: company.id, p: 100.5 }, admin.id)).toMatchObject({ code: "VALIDATION" });
    expect(await field(app, SHARE, { id: company.id, p: 12.345 }, admin.id)).toMatchObject({ code: "VALIDATION" });
    await field(app, SHARE, { id: company.id, p: 12.5 }, admin.id);
    const entry = await app.db.auditEntry.findFirstOrThrow({ where: { accion: "porcentaje_empresa", objetivo_id: company.id } });
    expect(JSON.parse(entry.detalles!)).toEqual({ antes: 0, porcentaje: 12.5 });
  });
});

const ADD_ACCOUNT = `mutation { addPayoutAccount(input: { tipo: nequi, numero: "3001234567" }) { __typename ... on CuentaRetiro { id empresa_id conductor_id numero } ... on Error { code } } }`;
const REQUEST = `mutation ($monto: Int!, $cuenta: Int!) { requestPayout(monto: $monto, cuenta_retiro_id: $cuenta) { __typename ... on Retiro { id empresa_id estado } ... on Error { code message } } }`;

describe("a company's payouts", () => {
  it("follow the drivers' rules: verified account, minimum, one open, administrators approve and pay, managers told", async () => {
    const { manager, company, driver } = await fleet(100);
    await completedTrip(app, driver, {}, 200_000);
    const account = await field(app, ADD_ACCOUNT, {}, manager.id);
    expect(account).toMatchObject({ __typename: "CuentaRetiro", empresa_id: company.id, conductor_id: null, numero: "3001234567" });
    expect(await field(app, REQUEST, { monto: 25_000, cuenta: account.id }, manager.id)).toMatchObject({ code: "VALIDATION" });
    await field(app, `mutation ($id: Int!) { verifyPayoutAccount(cuenta_retiro_id: $id) { __typename } }`, { id: account.id }, admin.id);
    expect(await field(app, REQUEST, { monto: 10_000, cuenta: account.id }, manager.id)).toMatchObject({ code: "VALIDATION" });
    expect(await field(app, REQUEST, { monto: 40_000, cuenta: account.id }, manager.id)).toMatchObject({ code: "VALIDATION" });
    const payout = await field(app, REQUEST, { monto: 25_000, cuenta: account.id }, manager.id);
    expect(payout).toEqual({ __typename: "Retiro", id: expect.any(Number), empresa_id: company.id, estado: "solicitado" });
    expect(await field(app, REQUEST, { monto: 20_000, cuenta: account.id }, manager.id)).toMatchObject({ code: "CONFLICT" });
    expect(await field(app, BALANCE, {}, manager.id)).toMatchObject({ saldo: 5000, en_retiro: 25_000 });

    for (const accion of ["aprobar", "pagar"]) {
      await field(
        app,
        `mutation ($a: AccionRetiro!, $id: Int!) { reviewPayout(accion: $a, retiro_id: $id, referencia_pago: "TRF-9") { __typename } }`,
        { a: accion, id: payout.id },
        admin.id,
      );
    }
    expect(await field(app, BALANCE, { e: company.id }, admin.id)).toMatchObject({ saldo: 5000, en_retiro: 0, total_retirado: 25_000 });
    expect(await app.db.notification.count({ where: { usuario_id: manager.id, tipo: "retiro" } })).toBe(3);
    const list = await field(app, `{ payouts { ... on PaginaRetiros { items { id empresa_id } } } }`, {}, manager.id);
    expect(list.items).toEqual([{ id: payout.id, empresa_id: company.id }]);
    const report = await field(
      app,
      `query ($d: String!) { settlementReport(desde: $d, hasta: $d) { ... on ConciliacionDinero { cuadra empresas { empresa_id participacion pagado saldo } } } }`,
      // The report's days are Bogotá days, which differ from UTC's from 19:00 on.
      { d: localDate(new Date()) },
      admin.id,
    );
    expect(report.cuadra).toBe(true);
    expect(report.empresas).toContainEqual({ empresa_id: company.id, participacion: 30_000, pagado: 25_000, saldo: 5000 });
  });

  it("are refused to a company that does not operate, and nobody else reads a company's money", async () => {
    const { manager, company } = await fleet(10);
    const other = await activeCompany(app, admin.id);
    expect(await field(app, BALANCE, { e: company.id }, other.manager.id)).toMatchObject({ code: "FORBIDDEN" });
    const driver = await createDriver(app);
    expect(await field(app, BALANCE, { e: company.id }, driver.id)).toMatchObject({ code: "FORBIDDEN" });
    await field(
      app,
      `mutation ($id: Int!) { updateCompany(id: $id, input: { estado: suspendida }) { __typename } }`,
      { id: company.id },
      admin.id,
    );
    expect(await field(app, ADD_ACCOUNT, {}, manager.id)).toMatchObject({ code: "FORBIDDEN" });
  });
});

const ADJUST = `mutation ($c: Int, $e: Int, $monto: Int!) {
  adjustBalance(conductor_id: $c, empresa_id: $e, monto: $monto, motivo: "Participación mal liquidada") {
    __typename ... on SaldoEmpresa { empresa_id saldo disponible } ... on SaldoConductor { conductor_id saldo } ... on Error { code message }
  }
}`;

describe("an administrator's correction of a company's balance", () => {
  it("posts against the company's account, tells its managers, is audited, and never takes the balance below zero", async () => {
    const { manager, company } = await activeCompany(app, admin.id);
    // A company with no money yet has no account in the ledger: a credit opens it.
    expect(await field(app, ADJUST, { e: company.id, monto: 12_000 }, admin.id)).toEqual({
      __typename: "SaldoEmpresa",
      empresa_id: company.id,
      saldo: 12_000,
      disponible: 12_000,
    });
    const entry = await app.db.ledgerEntry.findFirstOrThrow({
      where: { tipo: "ajuste", movimientos: { some: { cuenta: { codigo: `empresa:${company.id}` } } } },
      include: { movimientos: { include: { cuenta: { select: { codigo: true } } }, orderBy: { monto: "asc" } } },
    });
    expect(entry).toMatchObject({ descripcion: "Participación mal liquidada", creado_por: admin.id });
    expect(entry.movimientos.map((line) => [line.cuenta.codigo, line.concepto, line.monto])).toEqual([
      ["plataforma:ajustes", "ajuste", -12_000],
      [`empresa:${company.id}`, "ajuste", 12_000],
    ]);

    // A company never owes the platform: a debit past its balance is refused, and moves nothing.
    expect(await field(app, ADJUST, { e: company.id, monto: -12_001 }, admin.id)).toEqual({
      __typename: "ValidationError",
      code: "VALIDATION",
      message: "El campo 'monto' dejaría el saldo de la empresa por debajo de cero, y una empresa no le debe a la plataforma",
    });
    expect(await field(app, ADJUST, { e: company.id, monto: -12_000 }, admin.id)).toMatchObject({ saldo: 0, disponible: 0 });
    expect(await field(app, BALANCE, {}, manager.id)).toMatchObject({ saldo: 0 });

    const told = await app.db.notification.findMany({ where: { usuario_id: manager.id, tipo: "saldo" }, orderBy: { id: "asc" } });
    expect(told.map(({ titulo, mensaje }) => [titulo, mensaje])).toEqual([
      ["Saldo ajustado", "El saldo de tu empresa se ajustó en $12.000: Participación mal liquidada"],
      ["Saldo ajustado", "El saldo de tu empresa se ajustó en -$12.000: Participación mal liquidada"],
    ]);
    const log = await field(
      app,
      `query ($e: Int!) { auditLog(objetivo_tipo: empresa, objetivo_id: $e, accion: ajustar_saldo_empresa) { ... on PaginaAuditoria { items { descripcion } } } }`,
      { e: company.id },
      admin.id,
    );
    expect(log.items).toEqual([
      { descripcion: `Ajustó en -$12.000 el saldo de la empresa ${company.id}: Participación mal liquidada` },
      { descripcion: `Ajustó en $12.000 el saldo de la empresa ${company.id}: Participación mal liquidada` },
    ]);
    expect(await ledgerProblems(app.db)).toEqual([]);
  });

  it("names exactly one of a driver or a company that exists, and is for administrators only", async () => {
    const { manager, company } = await activeCompany(app, admin.id);
    const driver = await createDriver(app);
    const exactlyOne = { code: "VALIDATION", message: "Envía exactamente uno de los campos 'conductor_id' o 'empresa_id'" };
    expect(await field(app, ADJUST, { c: driver.id, e: company.id, monto: 1000 }, admin.id)).toMatchObject(exactlyOne);
    expect(await field(app, ADJUST, { monto: 1000 }, admin.id)).toMatchObject(exactlyOne);
    expect(await field(app, ADJUST, { e: 999_999, monto: 1000 }, admin.id)).toMatchObject({ code: "NOT_FOUND" });
    expect(await field(app, ADJUST, { e: company.id, monto: 1000 }, manager.id)).toMatchObject({ code: "FORBIDDEN" });
    expect(await app.db.ledgerAccount.findUnique({ where: { codigo: `empresa:${company.id}` } })).toBeNull();
    // A driver's balance may go below zero (the debt limit deals with it), and answers as a driver's.
    expect(await field(app, ADJUST, { c: driver.id, monto: -1000 }, admin.id)).toEqual({
      __typename: "SaldoConductor",
      conductor_id: driver.id,
      saldo: -1000,
    });
  });
});

describe("the smallest payout", () => {
  const MINIMUM = `{
    companyBalance { ... on SaldoEmpresa { retiro_minimo } }
  }`;

  it("is on every balance as the platform runs it (PAYOUT_MIN_COP)", async () => {
    const { manager } = await activeCompany(app, admin.id);
    expect(await field(app, MINIMUM, {}, manager.id)).toEqual({ retiro_minimo: 20_000 });
    const own = await createTestApp({ env: { PAYOUT_MIN_COP: "35000" } });
    try {
      const ownAdmin = await newAdmin(own);
      const company = await activeCompany(own, ownAdmin.id);
      const driver = await createDriver(own);
      expect(await field(own, MINIMUM, {}, company.manager.id)).toEqual({ retiro_minimo: 35_000 });
      expect(await field(own, `{ driverBalance { ... on SaldoConductor { retiro_minimo } } }`, {}, driver.id)).toEqual({
        retiro_minimo: 35_000,
      });
    } finally {
      await own.close();
    }
  });
});
