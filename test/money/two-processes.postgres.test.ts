import { describe, expect, it } from "vitest";
import { companyAccount } from "../../src/domain/money/holders.js";
import { ledgerProblems, PLATFORM, post } from "../../src/domain/money/ledger.js";
import { PASSWORD } from "../support/fixtures.js";
import { approveInDatabase, pairOnPostgres, postTo as call, registerOn, type ServiceProcess } from "../support/process.js";
import { ESTADIO, LLERAS } from "../support/trips.js";

const pair = pairOnPostgres();

describe("a trip completed on two processes at once", () => {
  it("is posted once, and the driver's balance moves once", async () => {
    const { a, b, db } = pair;
    const driver = await registerOn(a, "conductor");
    await approveInDatabase(db.prisma, driver.id);
    expect((await call(a, "/conductor/update_location.php", { conductor_id: driver.id, ...LLERAS, disponibilidad: 1 })).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 300));
    for (const metodo_pago of ["efectivo", "tarjeta"]) {
      const passenger = await registerOn(b, "pasajero");
      const created = await call(b, "/viajes/create_trip.php", {
        usuario_id: passenger.id,
        tipo_servicio: "auto",
        metodo_pago,
        origen: LLERAS,
        destino: ESTADIO,
      });
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      const trip_id = created.body.trip.id;
      expect((await call(a, "/viajes/accept_trip.php", { trip_id, conductor_id: driver.id })).status).toBe(200);
      expect((await call(b, "/viajes/start_trip.php", { trip_id })).status).toBe(200);
      const answers = await Promise.all([
        call(a, "/viajes/complete_trip.php", { trip_id, precio_final: 20_000 }),
        call(b, "/viajes/complete_trip.php", { trip_id, precio_final: 30_000 }),
      ]);
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 400]);
      expect(await db.prisma.ledgerEntry.count({ where: { viaje_id: trip_id } })).toBe(1);
    }
    // 20,000 or 30,000 in cash (−3,000 or −4,500), then 20,000 or 30,000 by card (+16,500 or +24,750).
    const { precio_final: first } = await db.prisma.trip.findFirstOrThrow({ where: { conductor_id: driver.id, metodo_pago: "efectivo" } });
    const { ganancia_conductor: net } = await db.prisma.trip.findFirstOrThrow({
      where: { conductor_id: driver.id, metodo_pago: "tarjeta" },
    });
    const account = await db.prisma.ledgerAccount.findUniqueOrThrow({ where: { codigo: `conductor:${driver.id}` } });
    expect(account.saldo).toBe(-Math.round(first! * 0.15) + net!);
    expect(await ledgerProblems(db.prisma)).toEqual([]);
  });
});

/** A session token from one of the processes. */
async function tokenOf(service: ServiceProcess, user: { email: string }) {
  const login = await call(service, "/auth/login.php", { email: user.email, password: PASSWORD });
  expect(login.status, JSON.stringify(login.body)).toBe(200);
  return { authorization: `Bearer ${login.body.token}` };
}

describe("payouts on two processes at once", () => {
  it("give two requests for the whole balance one payout, and one posting to a payout paid twice, with or without one key", async () => {
    const { a, b, db } = pair;
    const driver = await registerOn(a, "conductor");
    await approveInDatabase(db.prisma, driver.id);
    const adminUser = await registerOn(b, "pasajero");
    await db.prisma.user.update({ where: { id: adminUser.id }, data: { tipo_usuario: "admin" } });
    const [asDriver, asAdmin] = [await tokenOf(a, driver), await tokenOf(b, adminUser)];
    const account = await db.prisma.payoutAccount.create({
      data: { conductor_id: driver.id, tipo: "efectivo", verificada_en: new Date() },
    });
    const ADJUST = {
      query: `mutation { adjustBalance(conductor_id: ${driver.id}, monto: 100000, motivo: "Saldo inicial") { __typename } }`,
    };
    expect((await call(a, "/graphql", ADJUST, asAdmin)).body.data.adjustBalance.__typename).toBe("SaldoConductor");

    const whole = { monto: 100_000, cuenta_retiro_id: account.id };
    const asked = await Promise.all([
      call(a, "/conductor/solicitar_retiro.php", whole, asDriver),
      call(b, "/conductor/solicitar_retiro.php", whole, asDriver),
    ]);
    expect(asked.map((answer) => answer.status).sort()).toEqual([200, 409]);
    const retiro_id = asked.find((answer) => answer.status === 200)!.body.retiro.id;
    expect(await db.prisma.payout.count({ where: { conductor_id: driver.id } })).toBe(1);

    const approve = { accion: "aprobar", retiro_id };
    await call(a, "/admin/retiros.php", approve, asAdmin);
    const pay = { accion: "pagar", retiro_id, referencia_pago: "TRF-9" };
    const keyed = { ...asAdmin, "idempotency-key": "pagar-retiro-una-vez" };
    const paid = await Promise.all([
      call(a, "/admin/retiros.php", pay, keyed),
      call(b, "/admin/retiros.php", pay, keyed),
      call(a, "/admin/retiros.php", pay, asAdmin),
      call(b, "/admin/retiros.php", pay, asAdmin),
    ]);
    // The keyed pair answers alike (one of them replays the other, or waits for it); one call in all pays.
    expect(paid.filter((answer) => answer.status === 200 && answer.body.retiro.estado === "pagado").length).toBeGreaterThanOrEqual(1);
    expect(await db.prisma.ledgerEntry.count({ where: { clave: `retiro:${retiro_id}:pagado` } })).toBe(1);
    expect(await db.prisma.auditEntry.count({ where: { accion: "pagar_retiro", objetivo_id: retiro_id } })).toBe(1);
    const balance = await db.prisma.ledgerAccount.findUniqueOrThrow({ where: { codigo: `conductor:${driver.id}` } });
    expect(balance.saldo).toBe(0);
    expect(await ledgerProblems(db.prisma)).toEqual([]);
  });
});

describe("a company on two processes at once", () => {
  it("gets one payout from two requests for its whole balance, and one affiliation from two acceptances", async () => {
    const { a, b, db } = pair;
    const company = await db.prisma.company.create({ data: { nombre: "Flota Doble", nit: `8${Date.now() % 1e8}-1` } });
    const manager = await registerOn(a, "pasajero");
    await db.prisma.user.update({ where: { id: manager.id }, data: { tipo_usuario: "empresa", empresa_id: company.id } });
    const [onA, onB] = [await tokenOf(a, manager), await tokenOf(b, manager)];
    await db.prisma.$transaction((tx) =>
      post(tx, new Date(), {
        clave: `ajuste:empresa-${company.id}`,
        tipo: "ajuste",
        descripcion: "Saldo de prueba",
        lines: [
          { account: companyAccount(company.id), concepto: "ajuste", monto: 50_000 },
          { account: PLATFORM.adjustments, concepto: "ajuste", monto: -50_000 },
        ],
      }),
    );
    const account = await db.prisma.payoutAccount.create({ data: { empresa_id: company.id, tipo: "efectivo", verificada_en: new Date() } });
    const REQUEST = { query: `mutation { requestPayout(monto: 50000, cuenta_retiro_id: ${account.id}) { __typename } }` };
    const asked = await Promise.all([call(a, "/graphql", REQUEST, onA), call(b, "/graphql", REQUEST, onB)]);
    expect(asked.map((answer) => answer.body.data.requestPayout.__typename).sort()).toEqual(["ConflictError", "Retiro"]);
    expect(await db.prisma.payout.count({ where: { empresa_id: company.id } })).toBe(1);
    expect((await db.prisma.ledgerAccount.findUniqueOrThrow({ where: { codigo: `empresa:${company.id}` } })).saldo).toBe(0);

    const driver = await registerOn(b, "conductor");
    const request = await db.prisma.companyAffiliation.create({
      data: { empresa_id: company.id, conductor_id: driver.id, estado: "solicitada" },
    });
    const ACCEPT = { query: `mutation { acceptCompanyAffiliation(solicitud_id: ${request.id}) { __typename } }` };
    const accepted = await Promise.all([call(a, "/graphql", ACCEPT, onA), call(b, "/graphql", ACCEPT, onB)]);
    expect(accepted.map((answer) => answer.body.data.acceptCompanyAffiliation.__typename).sort()).toEqual([
      "InvalidStateError",
      "SolicitudAfiliacion",
    ]);
    expect(await db.prisma.affiliationChange.count({ where: { conductor_id: driver.id } })).toBe(1);
    expect(await ledgerProblems(db.prisma)).toEqual([]);
  });
});
