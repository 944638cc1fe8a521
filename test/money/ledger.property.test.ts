import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ledgerProblems } from "../../src/domain/money/ledger.js";
import { PAYMENT_METHODS, type PaymentMethod } from "../../src/domain/payment-methods.js";
import { createTestApp, type TestApp } from "../support/app.js";
import { activeCompany } from "../support/companies.js";
import { newAdmin } from "../support/drivers.js";
import { post } from "../support/fixtures.js";
import { createDriver, createPassenger, ESTADIO, LLERAS, requestTrip } from "../support/trips.js";

let app: TestApp;
let admin: { id: number };
beforeAll(async () => {
  app = await createTestApp();
  admin = await newAdmin(app);
});
afterAll(() => app.close());

const driver = fc.integer({ min: 0, max: 1 });
const company = fc.integer({ min: 0, max: 1 });
/** A company, or none. */
const affiliation = fc.option(company, { nil: null });
/** Whole pesos mostly, sometimes with cents the service must round. */
const price = fc.oneof(fc.integer({ min: 0, max: 400_000 }), fc.double({ min: 0, max: 400_000, noNaN: true }));

const step = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant("trip" as const),
      driver,
      metodo: fc.constantFrom(...PAYMENT_METHODS),
      price,
      // Asked for with a quote, whose price caps what is charged.
      quoted: fc.boolean(),
      // Straight, through a stop the driver waits at, or changed during the ride (re-quoted, the driver accepting).
      route: fc.constantFrom("directo", "parada", "cambio"),
      // Completed, or cancelled in one of the states a trip can be cancelled in.
      end: fc.constantFrom("completado", "cancelado_pendiente", "cancelado_aceptado", "cancelado_en_ruta", "cancelado_en_curso"),
      // The driver's company changes (or not) while the trip is under way.
      midTrip: fc.option(affiliation, { nil: undefined }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("affiliate" as const), driver, company: affiliation }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("share" as const),
      company,
      porcentaje: fc.integer({ min: 0, max: 10_000 }).map((n) => n / 100),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("company payout" as const),
      company,
      monto: fc.integer({ min: 0, max: 30_000 }),
      fate: fc.constantFrom("abierto", "aprobado", "pagado", "rechazado", "cancelado", "fallido"),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("payout" as const),
      driver,
      monto: fc.integer({ min: 0, max: 120_000 }),
      // What becomes of it once asked for: left open, or taken to one of its ends.
      fate: fc.constantFrom("abierto", "aprobado", "pagado", "rechazado", "cancelado", "fallido"),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant("company adjustment" as const), company, monto: fc.integer({ min: -30_000, max: 30_000 }) }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("deposit" as const), driver, monto: fc.integer({ min: -10, max: 80_000 }) }) },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant("adjustment" as const), driver, monto: fc.integer({ min: -40_000, max: 40_000 }) }),
  },
);
type Step = typeof step extends fc.Arbitrary<infer T> ? T : never;

/** What the test expects of a driver, from what it did: the terms of the balance the issue states. */
interface Expected {
  net: number;
  cash: number;
  /** Payouts open or paid. */
  payouts: number;
  deposits: number;
  adjustments: number;
  paid: number;
  open: boolean;
}
const balanceOf = (e: Expected) => e.net - e.cash - e.payouts + e.deposits + e.adjustments;

/** What the test expects of a company: its shares of trips, less its payouts open or paid, plus or minus adjustments. */
interface ExpectedCompany {
  shares: number;
  payouts: number;
  adjustments: number;
  paid: number;
  open: boolean;
  /** Its share (%) now, as the last step that set it left it. */
  porcentaje: number;
}
const companyBalanceOf = (c: ExpectedCompany) => c.shares - c.payouts + c.adjustments;

/** Who is whose while the steps run: each driver's company now (an index into the companies, or null). */
interface World {
  drivers: Array<{ id: number }>;
  accounts: number[];
  companies: Array<{ id: number; manager: number; account: number }>;
  driverCompany: Array<number | null>;
}

/** The default rates' commissions in tenths of a percent: 15 % of every fare, 2.5 % more where the platform collects. */
const expectedSplit = (pesos: number, metodo: PaymentMethod) => {
  const platform = Math.round((pesos * 150) / 1000);
  const total = Math.round((pesos * (metodo === "efectivo" ? 150 : 175)) / 1000);
  return { comision_plataforma: platform, comision_metodo_pago: total - platform, ganancia_conductor: pesos - total };
};

const gql = async (query: string, variables: Record<string, unknown>, as: number) => {
  const { data, errors } = await app.graphql(query, variables, as);
  expect(errors).toBeUndefined();
  return Object.values(data)[0] as { __typename: string; code?: string; id?: number; estado?: string };
};

const REQUEST = `mutation ($monto: Int!, $cuenta: Int!) {
  requestPayout(monto: $monto, cuenta_retiro_id: $cuenta) { __typename ... on Retiro { id } ... on Error { code } }
}`;
const REVIEW = `mutation ($accion: AccionRetiro!, $id: Int!) {
  reviewPayout(accion: $accion, retiro_id: $id, motivo: "Prueba", referencia_pago: "TRF") { __typename ... on Error { code } }
}`;
const CANCEL = `mutation ($id: Int!) { cancelPayout(retiro_id: $id) { __typename } }`;
const DEPOSIT = `mutation ($id: Int!, $monto: Int!) {
  recordDeposit(conductor_id: $id, monto: $monto, referencia: "R") { __typename ... on Error { code } }
}`;
const ADJUST = `mutation ($id: Int!, $monto: Int!) {
  adjustBalance(conductor_id: $id, monto: $monto, motivo: "Prueba") { __typename ... on Error { code } }
}`;
const ADJUST_COMPANY = `mutation ($id: Int!, $monto: Int!) {
  adjustBalance(empresa_id: $id, monto: $monto, motivo: "Prueba") { __typename ... on Error { code } }
}`;

const AFFILIATE = `mutation ($id: Int!, $empresa: Int) { updateUser(user_id: $id, input: { empresa_id: $empresa }) { __typename } }`;

async function affiliate(world: World, driverIndex: number, to: number | null) {
  const done = await gql(
    AFFILIATE,
    { id: world.drivers[driverIndex]!.id, empresa: to === null ? null : world.companies[to]!.id },
    admin.id,
  );
  expect(done.__typename).toBe("Usuario");
  world.driverCompany[driverIndex] = to;
}

const QUOTE = `query ($input: CreateTripInput!) { fareEstimate(input: $input) { ... on EstimacionTarifa { cotizacion_id precio_estimado } } }`;

const CREATE = `mutation ($input: CreateTripInput!) { createTrip(input: $input) { __typename ... on Viaje { id } ... on Error { message } } }`;
const STOP = { direccion: "Calle 33 # 80-10, Laureles", latitud: 6.2446, longitud: -75.5969 };

/** The trip requestTrip asks for, paid `metodo`, through `paradas`. */
const tripInput = (metodo: PaymentMethod, paradas: Array<typeof STOP>) => ({
  tipo_servicio: "auto",
  metodo_pago: metodo,
  origen: LLERAS,
  destino: ESTADIO,
  paradas,
});

/** A quote for that trip. */
async function quoteFor(passengerId: number, metodo: PaymentMethod, paradas: Array<typeof STOP>) {
  const { data } = await app.graphql(QUOTE, { input: tripInput(metodo, paradas) }, passengerId);
  return data.fareEstimate as { cotizacion_id: string; precio_estimado: number };
}

/** The trip asked for over GraphQL, as the legacy call takes no stops; expected created. */
async function createWithStops(passengerId: number, metodo: PaymentMethod, paradas: Array<typeof STOP>, cotizacion_id?: string) {
  const { data } = await app.graphql(CREATE, { input: { ...tripInput(metodo, paradas), cotizacion_id } }, passengerId);
  expect(data.createTrip.__typename, JSON.stringify(data)).toBe("Viaje");
  return data.createTrip as { id: number };
}

/** What waiting at a trip's stops adds to its most: whole minutes, from its stored marks, at the auto's per-minute rate. */
async function waitedAtStops(tripId: number): Promise<number> {
  const stops = await app.db.tripStop.findMany({ where: { viaje_id: tripId } });
  const ms = stops.reduce((sum, stop) => sum + (stop.salida_en!.getTime() - stop.llegada_en!.getTime()), 0);
  const { precio_minuto } = await app.db.pricingRate.findUniqueOrThrow({ where: { tipo_vehiculo: "auto" } });
  return Math.round(Math.ceil(ms / 60_000) * precio_minuto);
}

async function trip(world: World, passengerId: number, s: Extract<Step, { kind: "trip" }>, e: Expected, companies: ExpectedCompany[]) {
  const conductorId = world.drivers[s.driver]!.id;
  const paradas = s.route === "parada" ? [STOP] : [];
  const quote = s.quoted ? await quoteFor(passengerId, s.metodo, paradas) : null;
  const requested =
    paradas.length === 0
      ? await requestTrip(app, passengerId, { metodo_pago: s.metodo, cotizacion_id: quote?.cotizacion_id })
      : await createWithStops(passengerId, s.metodo, paradas, quote?.cotizacion_id);
  if (s.end !== "cancelado_pendiente") {
    const accepted = await post(app, "/viajes/accept_trip.php", { trip_id: requested.id, conductor_id: conductorId });
    // A driver kept offline by debt takes no trips: the request is cancelled instead.
    if (accepted.status !== 200) {
      expect(accepted.status, JSON.stringify(accepted.body)).toBe(400);
      await post(app, "/viajes/cancel_trip.php", { trip_id: requested.id, motivo: "Nadie" });
      return;
    }
  }
  // The trip is done for the driver's company when they accept it, at the share in force when it was requested.
  const doneFor = s.end === "cancelado_pendiente" ? null : world.driverCompany[s.driver]!;
  if (s.midTrip !== undefined) await affiliate(world, s.driver, s.midTrip);
  if (s.end === "cancelado_en_ruta") {
    const route = await gql(`mutation ($id: Int!) { startRoute(trip_id: $id) { __typename } }`, { id: requested.id }, conductorId);
    expect(route.__typename).toBe("Viaje");
  }
  if (s.end === "completado" || s.end === "cancelado_en_curso") await post(app, "/viajes/start_trip.php", { trip_id: requested.id });
  if (s.end !== "completado") {
    expect((await post(app, "/viajes/cancel_trip.php", { trip_id: requested.id, motivo: "Cambio de planes" })).status).toBe(200);
    return;
  }
  // The most the ride is charged: its quote, plus the time waited at its stops; or the last change its driver accepted.
  let most = quote?.precio_estimado ?? null;
  if (s.route === "parada") {
    for (const mark of ["arriveAtStop", "leaveStop"]) {
      const { data } = await app.graphql(
        `mutation ($id: Int!) { ${mark}(trip_id: $id, orden: 1) { __typename } }`,
        { id: requested.id },
        conductorId,
      );
      expect(data[mark].__typename).toBe("Viaje");
    }
    if (most !== null) most += await waitedAtStops(requested.id);
  }
  if (s.route === "cambio") {
    const asked = await app.graphql(
      `mutation ($id: Int!) { requestTripChange(trip_id: $id, paradas: [{ latitud: 6.2446, longitud: -75.5969 }]) { ... on CambioViaje { id precio_despues } } }`,
      { id: requested.id },
      passengerId,
    );
    const change = asked.data.requestTripChange as { id: number; precio_despues: number };
    const { data } = await app.graphql(
      `mutation ($id: Int!) { answerTripChange(cambio_id: $id, aceptar: true) { __typename } }`,
      { id: change.id },
      conductorId,
    );
    expect(data.answerTripChange.__typename).toBe("CambioViaje");
    most = change.precio_despues;
  }
  const completed = await post(app, "/viajes/complete_trip.php", { trip_id: requested.id, precio_final: s.price });
  expect(completed.status, JSON.stringify(completed.body)).toBe(200);
  const pesos = Math.min(Math.round(s.price), most ?? Number.POSITIVE_INFINITY);
  const stored = await app.db.trip.findUniqueOrThrow({ where: { id: requested.id } });
  const split = expectedSplit(pesos, s.metodo);
  const share =
    doneFor === null ? null : Math.round((split.comision_plataforma * Math.round(companies[doneFor]!.porcentaje * 100)) / 10_000);
  expect(stored).toMatchObject({
    precio_final: pesos,
    ...split,
    empresa_id: doneFor === null ? null : world.companies[doneFor]!.id,
    comision_empresa: share,
  });
  if (doneFor !== null) companies[doneFor]!.shares += share!;
  e.net += stored.ganancia_conductor!;
  if (s.metodo === "efectivo") e.cash += pesos;
}

async function payout(conductorId: number, account: number, e: Expected, s: Extract<Step, { kind: "payout" }>) {
  const asked = await gql(REQUEST, { monto: s.monto, cuenta: account }, conductorId);
  if (e.open) return expect(asked.code).toBe("CONFLICT");
  if (s.monto < 20_000 || s.monto > Math.max(0, balanceOf(e))) return expect(asked.code).toBe("VALIDATION");
  expect(asked.__typename).toBe("Retiro");
  e.payouts += s.monto;
  e.open = true;
  const review = (accion: string) => gql(REVIEW, { accion, id: asked.id }, admin.id);
  if (s.fate === "abierto") return;
  if (s.fate === "cancelado") expect((await gql(CANCEL, { id: asked.id }, conductorId)).__typename).toBe("Retiro");
  else if (s.fate === "rechazado") expect((await review("rechazar")).__typename).toBe("Retiro");
  else {
    expect((await review("aprobar")).__typename).toBe("Retiro");
    if (s.fate === "aprobado") return;
    expect((await review(s.fate === "pagado" ? "pagar" : "fallido")).__typename).toBe("Retiro");
  }
  e.open = false;
  if (s.fate === "pagado") e.paid += s.monto;
  else e.payouts -= s.monto;
}

/** A company's payout, as its manager asks for it and administrators take it on; the same rules as drivers'. */
async function companyPayout(world: World, c: ExpectedCompany, s: Extract<Step, { kind: "company payout" }>) {
  const { manager, account } = world.companies[s.company]!;
  const asked = await gql(REQUEST, { monto: s.monto, cuenta: account }, manager);
  if (c.open) return expect(asked.code).toBe("CONFLICT");
  if (s.monto < 20_000 || s.monto > Math.max(0, companyBalanceOf(c))) return expect(asked.code).toBe("VALIDATION");
  expect(asked.__typename).toBe("Retiro");
  c.payouts += s.monto;
  c.open = true;
  const review = (accion: string) => gql(REVIEW, { accion, id: asked.id }, admin.id);
  if (s.fate === "abierto") return;
  if (s.fate === "cancelado") expect((await gql(CANCEL, { id: asked.id }, manager)).__typename).toBe("Retiro");
  else if (s.fate === "rechazado") expect((await review("rechazar")).__typename).toBe("Retiro");
  else {
    expect((await review("aprobar")).__typename).toBe("Retiro");
    if (s.fate === "aprobado") return;
    expect((await review(s.fate === "pagado" ? "pagar" : "fallido")).__typename).toBe("Retiro");
  }
  c.open = false;
  if (s.fate === "pagado") c.paid += s.monto;
  else c.payouts -= s.monto;
}

/** An administrator's correction of a company's balance: refused if zero, or if it would leave the company owing. */
async function companyAdjustment(world: World, c: ExpectedCompany, s: Extract<Step, { kind: "company adjustment" }>) {
  const done = await gql(ADJUST_COMPANY, { id: world.companies[s.company]!.id, monto: s.monto }, admin.id);
  if (s.monto === 0 || companyBalanceOf(c) + s.monto < 0) return expect(done.code).toBe("VALIDATION");
  expect(done.__typename).toBe("SaldoEmpresa");
  c.adjustments += s.monto;
}

async function run(steps: Step[]) {
  const drivers = [await createDriver(app), await createDriver(app)];
  const accounts: number[] = [];
  for (const { id } of drivers) {
    const account = await app.db.payoutAccount.create({ data: { conductor_id: id, tipo: "efectivo", verificada_en: new Date() } });
    accounts.push(account.id);
  }
  const companies: World["companies"] = [];
  for (const _ of [0, 1]) {
    const { manager, company } = await activeCompany(app, admin.id);
    const account = await app.db.payoutAccount.create({ data: { empresa_id: company.id, tipo: "efectivo", verificada_en: new Date() } });
    companies.push({ id: company.id, manager: manager.id, account: account.id });
  }
  const world: World = { drivers, accounts, companies, driverCompany: [null, null] };
  const passenger = await createPassenger(app);
  const expected: Expected[] = drivers.map(() => ({ net: 0, cash: 0, payouts: 0, deposits: 0, adjustments: 0, paid: 0, open: false }));
  const expectedCompanies: ExpectedCompany[] = companies.map(() => ({
    shares: 0,
    payouts: 0,
    adjustments: 0,
    paid: 0,
    open: false,
    porcentaje: 0,
  }));
  for (const s of steps) {
    if (s.kind === "affiliate") await affiliate(world, s.driver, s.company);
    if (s.kind === "share") {
      const set = await gql(
        `mutation ($id: Int!, $p: Float!) { setCompanyShare(id: $id, porcentaje: $p) { __typename } }`,
        { id: companies[s.company]!.id, p: s.porcentaje },
        admin.id,
      );
      expect(set.__typename).toBe("Empresa");
      expectedCompanies[s.company]!.porcentaje = s.porcentaje;
    }
    if (s.kind === "company payout") await companyPayout(world, expectedCompanies[s.company]!, s);
    if (s.kind === "company adjustment") await companyAdjustment(world, expectedCompanies[s.company]!, s);
    if (s.kind === "share" || s.kind === "affiliate" || s.kind === "company payout" || s.kind === "company adjustment") {
      await expectBalanced(drivers, expected, companies, expectedCompanies);
      continue;
    }
    const conductorId = drivers[s.driver]!.id;
    const e = expected[s.driver]!;
    if (s.kind === "trip") await trip(world, passenger.id, s, e, expectedCompanies);
    if (s.kind === "payout") await payout(conductorId, accounts[s.driver]!, e, s);
    if (s.kind === "deposit") {
      const done = await gql(DEPOSIT, { id: conductorId, monto: s.monto }, admin.id);
      if (s.monto > 0) e.deposits += s.monto;
      else expect(done.code).toBe("VALIDATION");
    }
    if (s.kind === "adjustment") {
      const done = await gql(ADJUST, { id: conductorId, monto: s.monto }, admin.id);
      if (s.monto !== 0) e.adjustments += s.monto;
      else expect(done.code).toBe("VALIDATION");
    }
    await expectBalanced(drivers, expected, companies, expectedCompanies);
  }
}

async function expectBalanced(
  drivers: Array<{ id: number }>,
  expected: Expected[],
  companies: World["companies"],
  expectedCompanies: ExpectedCompany[],
) {
  expect(await ledgerProblems(app.db)).toEqual([]);
  for (const [i, { id, manager }] of companies.entries()) {
    const c = expectedCompanies[i]!;
    const balance = await gql(`{ companyBalance { __typename ... on SaldoEmpresa { saldo en_retiro total_retirado } } }`, {}, manager);
    // A company's balance never goes below zero: its payouts are reserved against it, and an adjustment that would is refused.
    expect(balance).toEqual({
      __typename: "SaldoEmpresa",
      saldo: companyBalanceOf(c),
      en_retiro: c.payouts - c.paid,
      total_retirado: c.paid,
    });
    expect(companyBalanceOf(c)).toBeGreaterThanOrEqual(0);
    const account = await app.db.ledgerAccount.findUnique({ where: { codigo: `empresa:${id}` } });
    expect(account?.saldo ?? 0).toBe(companyBalanceOf(c));
  }
  for (const [i, { id }] of drivers.entries()) {
    const e = expected[i]!;
    const account = await app.db.ledgerAccount.findUnique({ where: { codigo: `conductor:${id}` } });
    expect(account?.saldo ?? 0).toBe(balanceOf(e));
    const balance = await gql(
      `query ($id: Int) { driverBalance(conductor_id: $id) { __typename ... on SaldoConductor { total_retirado } } }`,
      { id },
      admin.id,
    );
    expect(balance).toMatchObject({ total_retirado: e.paid });
    const earned = await app.db.ledgerLine.aggregate({
      where: { concepto: "ganancia", cuenta: { conductor_id: id } },
      _sum: { monto: true },
    });
    expect(earned._sum.monto ?? 0).toBe(e.net);
    for (const periodo of ["hoy", "total"]) {
      const report = await app.legacy("GET", `/conductor/get_earnings.php?conductor_id=${id}&periodo=${periodo}`);
      expect(report.body.earnings.ganancia_total).toBe(e.net);
    }
  }
}

describe("the ledger, after every step of random trips, payouts, deposits, adjustments, affiliations and companies' shares, payouts and adjustments", () => {
  it("balances every entry and itself, keeps each balance as the sum of its lines and as its terms, and agrees with the earnings report", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 8 }), (steps) => run(steps)),
      // A case that never ends fails after a minute, and shrinking stops before the test's own
      // timeout, so that a failure is reported with its seed and steps rather than as a timeout.
      { numRuns: 20, timeout: 60_000, interruptAfterTimeLimit: 240_000, markInterruptAsFailure: true },
    );
    // Each run is some thirty calls through the whole service; on PostgreSQL that takes a while.
  }, 300_000);
});
