import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ledgerProblems } from "../../src/domain/money/ledger.js";
import { createTestApp, type TestApp } from "../support/app.js";
import { newAdmin } from "../support/drivers.js";
import { post } from "../support/fixtures.js";
import { completedTrip, createDriver } from "../support/trips.js";

// The deployed app's files named here (lib/src/…) are in https://github.com/Braian551/pingo/tree/35be6b2751ba54667ec1437fc46cd3a8ee79fd51.

let app: TestApp;
let admin: { id: number };
beforeAll(async () => {
  app = await createTestApp();
  admin = await newAdmin(app);
});
afterAll(() => app.close());

const ride = (driver: { id: number }, metodo_pago: string, precio: number) => completedTrip(app, driver, { metodo_pago }, precio);

/** A legacy call with the user's session token. */
const as = async (userId: number, method: string, path: string, body?: Record<string, unknown>) =>
  app.legacy(method, path, body, await app.bearer(userId));

const saldo = async (driverId: number) => (await as(driverId, "GET", "/conductor/get_saldo.php")).body.saldo;

const verify = (accountId: number) =>
  app.graphql(
    `mutation ($id: Int!) { verifyPayoutAccount(cuenta_retiro_id: $id) { __typename ... on CuentaRetiro { verificada } } }`,
    { id: accountId },
    admin.id,
  );

const review = (body: Record<string, unknown>) => as(admin.id, "POST", "/admin/retiros.php", body);

describe("a driver's payout, from the earnings screen to the bank", () => {
  it("registers an account, is verified, asks, is approved and paid, every peso accounted for", async () => {
    const driver = await createDriver(app);
    // 40,000 by card: 33,000 for the driver.
    await ride(driver, "tarjeta", 40_000);
    expect(await saldo(driver.id)).toEqual({ disponible: 33_000, en_retiro: 0, deuda: 0, total_retirado: 0 });

    const badPhone = await as(driver.id, "POST", "/conductor/cuentas_retiro.php", { tipo: "nequi", numero: "2001234567" });
    expect(badPhone.status).toBe(400);
    expect(badPhone.body.message).toBe("El campo 'numero' debe ser un celular de 10 dígitos que empiece por 3");
    const noHolder = await as(driver.id, "POST", "/conductor/cuentas_retiro.php", {
      tipo: "cuenta_bancaria",
      banco: "Bancolombia",
      tipo_cuenta: "ahorros",
      numero: "12345678901",
    });
    expect(noHolder.body.message).toBe("El campo 'titular_nombre' es obligatorio para una cuenta bancaria");
    const added = await as(driver.id, "POST", "/conductor/cuentas_retiro.php", { tipo: "nequi", numero: "3001234567" });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    expect(added.body.cuenta).toMatchObject({ tipo: "nequi", numero: "3001234567", descripcion: "Nequi ****4567", verificada: false });
    const account = added.body.cuenta.id;

    const unverified = await as(driver.id, "POST", "/conductor/solicitar_retiro.php", { monto: 25_000, cuenta_retiro_id: account });
    expect(unverified.status).toBe(400);
    expect(unverified.body.message).toBe("El campo 'cuenta_retiro_id' es de una cuenta que un administrador aún no ha verificado");
    expect((await verify(account)).data.verifyPayoutAccount).toEqual({ __typename: "CuentaRetiro", verificada: true });

    const small = await as(driver.id, "POST", "/conductor/solicitar_retiro.php", { monto: 19_999, cuenta_retiro_id: account });
    expect(small.body.message).toBe("El campo 'monto' debe ser al menos $20.000");
    const large = await as(driver.id, "POST", "/conductor/solicitar_retiro.php", { monto: 33_001, cuenta_retiro_id: account });
    expect(large.status).toBe(400);
    expect(large.body.message).toBe("El campo 'monto' pasa de tu saldo disponible");
    const asked = await as(driver.id, "POST", "/conductor/solicitar_retiro.php", { monto: 25_000, cuenta_retiro_id: account });
    expect(asked.status, JSON.stringify(asked.body)).toBe(200);
    const payout = asked.body.retiro;
    expect(payout).toMatchObject({ monto: 25_000, estado: "solicitado", cuenta: { id: account } });
    expect(await saldo(driver.id)).toEqual({ disponible: 8000, en_retiro: 25_000, deuda: 0, total_retirado: 0 });
    const again = await as(driver.id, "POST", "/conductor/solicitar_retiro.php", { monto: 20_000, cuenta_retiro_id: account });
    expect(again.status).toBe(409);

    const unpaid = await review({ accion: "pagar", retiro_id: payout.id, referencia_pago: "TRF-1" });
    expect(unpaid.status).toBe(400);
    expect(unpaid.body.message).toBe(`El retiro ${payout.id} está solicitado; solo uno aprobado se puede pagar`);
    expect((await review({ accion: "aprobar", retiro_id: payout.id })).body.retiro.estado).toBe("aprobado");
    expect((await review({ accion: "pagar", retiro_id: payout.id })).body.message).toBe(
      "El campo 'referencia_pago' es obligatorio para marcar un retiro pagado (la referencia de la transferencia)",
    );
    const paid = await review({ accion: "pagar", retiro_id: payout.id, referencia_pago: "TRF-1" });
    expect(paid.body.retiro).toMatchObject({ estado: "pagado", referencia_pago: "TRF-1", cerrado_en: expect.any(String) });
    expect((await review({ accion: "pagar", retiro_id: payout.id, referencia_pago: "TRF-2" })).status).toBe(400);
    expect(await saldo(driver.id)).toEqual({ disponible: 8000, en_retiro: 0, deuda: 0, total_retirado: 25_000 });

    const listed = await as(driver.id, "GET", "/conductor/get_retiros.php");
    expect(listed.body.retiros.map((r: { id: number; estado: string }) => [r.id, r.estado])).toEqual([[payout.id, "pagado"]]);
    const movements = await as(driver.id, "GET", "/conductor/get_movimientos.php", { per_page: "10" });
    expect(movements.body.movimientos.map((m: { concepto: string; monto: number }) => [m.concepto, m.monto])).toEqual([
      ["retiro", -25_000],
      ["ganancia", 33_000],
    ]);
    const notices = await app.db.notification.findMany({ where: { usuario_id: driver.id, tipo: { in: ["retiro", "cuenta_retiro"] } } });
    expect(notices.map((n) => n.titulo)).toEqual(["Cuenta de retiro verificada", "Retiro solicitado", "Retiro aprobado", "Retiro pagado"]);
    const audits = await app.db.auditEntry.findMany({ where: { objetivo_tipo: "retiro", objetivo_id: payout.id }, orderBy: { id: "asc" } });
    expect(audits.map((a) => [a.accion, a.admin_id])).toEqual([
      ["solicitar_retiro", driver.id],
      ["aprobar_retiro", admin.id],
      ["pagar_retiro", admin.id],
    ]);
    expect(await app.db.ledgerEntry.count({ where: { clave: { startsWith: `retiro:${payout.id}:` } } })).toBe(2);
    expect(await ledgerProblems(app.db)).toEqual([]);
  });

  it("gives the amount back when a payout is rejected, cancelled or fails", async () => {
    const driver = await createDriver(app);
    await ride(driver, "billetera_digital", 100_000);
    const before = (await saldo(driver.id)).disponible;
    const { id: account } = (await as(driver.id, "POST", "/conductor/cuentas_retiro.php", { tipo: "efectivo" })).body.cuenta;
    await verify(account);
    const ask = async () =>
      (await as(driver.id, "POST", "/conductor/solicitar_retiro.php", { monto: 30_000, cuenta_retiro_id: account })).body.retiro;

    const rejected = await ask();
    expect((await review({ accion: "rechazar", retiro_id: rejected.id })).body.message).toBe(
      "El campo 'motivo' es obligatorio para rechazar o marcar fallido un retiro",
    );
    expect((await review({ accion: "rechazar", retiro_id: rejected.id, motivo: "Cuenta a nombre de otro" })).body.retiro.estado).toBe(
      "rechazado",
    );
    expect((await saldo(driver.id)).disponible).toBe(before);

    const cancelled = await ask();
    const CANCEL = `mutation ($id: Int!) { cancelPayout(retiro_id: $id) { __typename ... on Retiro { estado } ... on Error { message } } }`;
    expect((await app.graphql(CANCEL, { id: cancelled.id }, driver.id)).data.cancelPayout).toEqual({
      __typename: "Retiro",
      estado: "cancelado",
    });
    expect((await saldo(driver.id)).disponible).toBe(before);
    const withdrawn = await app.db.auditEntry.findFirstOrThrow({
      where: { objetivo_tipo: "retiro", objetivo_id: cancelled.id, accion: "cancelar_retiro" },
    });
    expect(withdrawn.admin_id).toBe(driver.id);

    const failed = await ask();
    await review({ accion: "aprobar", retiro_id: failed.id });
    expect((await app.graphql(CANCEL, { id: failed.id }, driver.id)).data.cancelPayout.message).toBe(
      `El retiro ${failed.id} está aprobado; solo se cancela uno solicitado`,
    );
    expect((await review({ accion: "fallido", retiro_id: failed.id, motivo: "La cuenta no existe" })).body.retiro.estado).toBe("fallido");
    expect(await saldo(driver.id)).toEqual({ disponible: before, en_retiro: 0, deuda: 0, total_retirado: 0 });
    expect(await ledgerProblems(app.db)).toEqual([]);
  });

  it("needs the caller's own token: an id in the body moves no money, and nobody else's account number shows", async () => {
    const driver = await createDriver(app);
    const byId = await app.legacy("GET", "/conductor/get_saldo.php", { conductor_id: String(driver.id) });
    expect(byId.status).toBe(401);
    expect(byId.body).toEqual({ success: false, message: "Inicia sesión (Authorization: Bearer) para ver o mover dinero" });
    const asking = await app.legacy("POST", "/conductor/solicitar_retiro.php", {
      conductor_id: driver.id,
      monto: 20_000,
      cuenta_retiro_id: 1,
    });
    expect(asking.status).toBe(401);
    const added = await as(driver.id, "POST", "/conductor/cuentas_retiro.php", { tipo: "daviplata", numero: "3157654321" });
    const ACCOUNTS = `query ($id: Int) { payoutAccounts(conductor_id: $id) { ... on QueryPayoutAccountsSuccess { data { numero descripcion } } ... on Error { code } } }`;
    expect((await app.graphql(ACCOUNTS, { id: driver.id }, admin.id)).data.payoutAccounts.data).toEqual([
      { numero: "3157654321", descripcion: "Daviplata ****4321" },
    ]);
    const other = await createDriver(app);
    expect((await app.graphql(ACCOUNTS, { id: driver.id }, other.id)).data.payoutAccounts.code).toBe("FORBIDDEN");
    expect(added.body.cuenta.numero).toBe("3157654321");
  });
});

describe("what a driver owes", () => {
  it("keeps a driver past the debt limit offline after the trip, says why when they try, and lets them back once paid", async () => {
    const driver = await createDriver(app);
    // 15 % of 400,000 in cash: 60,000 owed, past the 50,000 limit.
    await ride(driver, "efectivo", 400_000);
    expect(await saldo(driver.id)).toEqual({ disponible: 0, en_retiro: 0, deuda: 60_000, total_retirado: 0 });
    expect((await app.db.driverStatus.findUniqueOrThrow({ where: { conductor_id: driver.id } })).disponible).toBe(false);
    const notice = await app.db.notification.findFirstOrThrow({ where: { usuario_id: driver.id, tipo: "saldo" } });
    const why =
      "Debes $60.000 a la plataforma por comisiones de viajes en efectivo, más que el límite de $50.000; " +
      "paga la deuda para volver a conectarte";
    expect(notice.mensaje).toBe(why);
    // ConductorService.actualizarDisponibilidad (conductor_service.dart:105-143) shows `message` only from a 200.
    const goOnline = { conductor_id: driver.id, disponible: 1, latitud: 6.2086, longitud: -75.5659 };
    const refused = await post(app, "/conductor/actualizar_disponibilidad.php", goOnline);
    expect(refused.status).toBe(200);
    expect(refused.body).toEqual({ success: false, message: why });
    const online = { conductor_id: driver.id, latitud: 6.2086, longitud: -75.5659, disponibilidad: 1 };
    expect((await post(app, "/conductor/update_location.php", online)).body).toEqual({ success: false, message: why });
    const GO_ONLINE = `mutation { updateDriverLocation(disponibilidad: 1) { __typename ... on Error { code } } }`;
    expect((await app.graphql(GO_ONLINE, {}, driver.id)).data.updateDriverLocation).toEqual({
      __typename: "DebtLimitError",
      code: "DEBT_LIMIT",
    });

    const DEPOSIT = `mutation ($id: Int!, $monto: Int!) {
      recordDeposit(conductor_id: $id, monto: $monto, referencia: "CONSIGNACION-77") { ... on SaldoConductor { deuda } ... on Error { message } }
    }`;
    expect((await app.graphql(DEPOSIT, { id: driver.id, monto: 0 }, admin.id)).data.recordDeposit.message).toBe(
      "El campo 'monto' debe ser mayor que cero",
    );
    expect((await app.graphql(DEPOSIT, { id: driver.id, monto: 15_000 }, admin.id)).data.recordDeposit).toEqual({ deuda: 45_000 });
    const back = await post(app, "/conductor/update_location.php", online);
    expect(back.status, JSON.stringify(back.body)).toBe(200);
    expect(back.body.ubicacion.disponibilidad).toBe(1);

    const ADJUST = `mutation ($id: Int!, $monto: Int!) {
      adjustBalance(conductor_id: $id, monto: $monto, motivo: "Comisión cobrada de más") { ... on SaldoConductor { deuda } ... on Error { message } }
    }`;
    expect((await app.graphql(ADJUST, { id: driver.id, monto: 5000 }, admin.id)).data.adjustBalance).toEqual({ deuda: 40_000 });
    const audits = await app.db.auditEntry.findMany({
      where: { objetivo_tipo: "conductor", objetivo_id: driver.id },
      orderBy: { id: "asc" },
    });
    expect(audits.map((a) => a.accion)).toEqual(["registrar_deposito", "ajustar_saldo"]);
    expect(await ledgerProblems(app.db)).toEqual([]);
  });
});

describe("the money lists over GraphQL", () => {
  let driver: { id: number };
  let payouts: number[] = [];
  beforeAll(async () => {
    driver = await createDriver(app);
    await ride(driver, "tarjeta", 200_000);
    const { id: account } = (await as(driver.id, "POST", "/conductor/cuentas_retiro.php", { tipo: "efectivo" })).body.cuenta;
    await verify(account);
    // A 30,000 payout rejected, then a 20,000 one left open: one driver has one open at a time.
    const ask = async (monto: number) =>
      (await as(driver.id, "POST", "/conductor/solicitar_retiro.php", { monto, cuenta_retiro_id: account })).body.retiro.id as number;
    const big = await ask(30_000);
    await review({ accion: "rechazar", retiro_id: big, motivo: "Prueba" });
    payouts = [big, await ask(20_000)];
  });

  it("sort payouts by amount, date, state or id, newest first by default", async () => {
    const PAYOUTS = `query ($id: Int, $sort: OrdenRetiros, $order: Orden, $estado: EstadoRetiro) {
      payouts(conductor_id: $id, sort: $sort, order: $order, estado: $estado) { ... on PaginaRetiros { items { id } pagination { total } } }
    }`;
    const ids = async (args: Record<string, unknown>) =>
      (await app.graphql(PAYOUTS, { id: driver.id, ...args }, admin.id)).data.payouts.items.map((p: { id: number }) => p.id);
    const [big, small] = payouts;
    expect(await ids({})).toEqual([small, big]);
    expect(await ids({ order: "asc" })).toEqual([big, small]);
    expect(await ids({ sort: "monto" })).toEqual([small, big]);
    expect(await ids({ sort: "monto", order: "desc" })).toEqual([big, small]);
    expect(await ids({ sort: "estado" }), "rechazado before solicitado").toEqual([big, small]);
    expect(await ids({ sort: "solicitado_en", order: "desc" })).toEqual([small, big]);
    expect(await ids({ estado: "rechazado" })).toEqual([big]);
  });

  it("sort a driver's movements and the ledger's entries", async () => {
    const MOVEMENTS = `query ($id: Int, $sort: OrdenMovimientos, $order: Orden) {
      driverMovements(conductor_id: $id, sort: $sort, order: $order) { ... on PaginaMovimientos { items { concepto monto } } }
    }`;
    const movements = async (args: Record<string, unknown>) =>
      (await app.graphql(MOVEMENTS, { id: driver.id, ...args }, admin.id)).data.driverMovements.items.map(
        (m: { concepto: string; monto: number }) => m.monto,
      );
    // Earned 165,000 (the card trip net of both commissions), 30,000 reserved and given back, 20,000 reserved.
    expect(await movements({})).toEqual([-20_000, 30_000, -30_000, 165_000]);
    expect(await movements({ order: "asc" })).toEqual([165_000, -30_000, 30_000, -20_000]);
    expect(await movements({ sort: "monto" })).toEqual([-30_000, -20_000, 30_000, 165_000]);
    expect(await movements({ sort: "fecha", order: "desc" })).toEqual([-20_000, 30_000, -30_000, 165_000]);

    const ENTRIES = `query ($id: Int, $sort: OrdenAsientos, $order: Orden, $tipo: TipoAsiento) {
      ledgerEntries(conductor_id: $id, sort: $sort, order: $order, tipo: $tipo) { ... on PaginaAsientos { items { tipo clave } } }
    }`;
    const entries = async (args: Record<string, unknown>) =>
      (await app.graphql(ENTRIES, { id: driver.id, ...args }, admin.id)).data.ledgerEntries.items.map((e: { tipo: string }) => e.tipo);
    expect(await entries({})).toEqual(["retiro", "retiro", "retiro", "viaje"]);
    expect(await entries({ order: "asc" })).toEqual(["viaje", "retiro", "retiro", "retiro"]);
    expect(await entries({ sort: "tipo", order: "desc" })).toEqual(["viaje", "retiro", "retiro", "retiro"]);
    expect(await entries({ tipo: "viaje" })).toEqual(["viaje"]);
  });
});

describe("the legacy money calls, with values outside their lists", () => {
  it.each([
    [
      "GET",
      "/conductor/get_retiros.php",
      { estado: "perdido" },
      "El campo 'estado' debe ser uno de: solicitado, aprobado, pagado, rechazado, cancelado, fallido",
    ],
    [
      "GET",
      "/admin/retiros.php",
      { estado: "perdido" },
      "El campo 'estado' debe ser uno de: solicitado, aprobado, pagado, rechazado, cancelado, fallido",
    ],
    [
      "POST",
      "/admin/retiros.php",
      { accion: "regalar", retiro_id: 1 },
      "El campo 'accion' debe ser uno de: aprobar, rechazar, pagar, fallido",
    ],
    [
      "POST",
      "/conductor/cuentas_retiro.php",
      { tipo: "bitcoin" },
      "El campo 'tipo' debe ser uno de: nequi, daviplata, cuenta_bancaria, efectivo",
    ],
    [
      "POST",
      "/conductor/cuentas_retiro.php",
      { tipo: "cuenta_bancaria", tipo_cuenta: "plazo_fijo" },
      "El campo 'tipo_cuenta' debe ser uno de: ahorros, corriente",
    ],
    [
      "POST",
      "/conductor/cuentas_retiro.php",
      { tipo: "cuenta_bancaria", titular_tipo_documento: "RUT" },
      "El campo 'titular_tipo_documento' debe ser uno de: CC, CE, NIT, PAS, PEP",
    ],
  ])("%s %s %j answers 400 naming the field", async (method, path, body, message) => {
    const caller = path.startsWith("/admin") ? admin : await createDriver(app);
    const response = await as(caller.id, method, path, body);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ success: false, message });
  });
});
