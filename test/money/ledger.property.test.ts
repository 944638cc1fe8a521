import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ledgerProblems } from "../../src/domain/money/ledger.js";
import { PAYMENT_METHODS, type PaymentMethod } from "../../src/domain/money/payment-methods.js";
import { createTestApp, type TestApp } from "../support/app.js";
import { post } from "../support/fixtures.js";
import { createDriver, createPassenger, requestTrip } from "../support/trips.js";

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(() => app.close());

/** How far a trip gets: completed, or cancelled in one of the states it can be cancelled in. */
const ENDS = ["completado", "cancelado_pendiente", "cancelado_aceptado", "cancelado_en_curso"] as const;

const step = fc.record({
  driver: fc.integer({ min: 0, max: 1 }),
  metodo: fc.constantFrom(...PAYMENT_METHODS),
  end: fc.constantFrom(...ENDS),
  // Whole pesos mostly, sometimes with cents the service must round.
  price: fc.oneof(fc.integer({ min: 0, max: 400_000 }), fc.double({ min: 0, max: 400_000, noNaN: true })),
});

type Step = typeof step extends fc.Arbitrary<infer T> ? T : never;

/** What the test expects of a driver, from the trips it ran: net earned, and fares the driver collected in cash. */
interface Expected {
  net: number;
  cash: number;
}

/** The default rates' commissions in tenths of a percent: 15 % of every fare, 2.5 % more where the platform collects. */
const expectedSplit = (price: number, metodo: PaymentMethod) => {
  const platform = Math.round((price * 150) / 1000);
  const total = Math.round((price * (metodo === "efectivo" ? 150 : 175)) / 1000);
  return { comision_plataforma: platform, comision_metodo_pago: total - platform, ganancia_conductor: price - total };
};

async function run(steps: Step[]) {
  const drivers = [await createDriver(app), await createDriver(app)];
  const passenger = await createPassenger(app);
  const expected: Expected[] = drivers.map(() => ({ net: 0, cash: 0 }));
  for (const { driver, metodo, end, price } of steps) {
    const conductor = drivers[driver]!;
    const trip = await requestTrip(app, passenger.id, { metodo_pago: metodo });
    if (end !== "cancelado_pendiente") {
      expect((await post(app, "/viajes/accept_trip.php", { trip_id: trip.id, conductor_id: conductor.id })).status).toBe(200);
    }
    if (end === "completado" || end === "cancelado_en_curso") {
      expect((await post(app, "/viajes/start_trip.php", { trip_id: trip.id })).status).toBe(200);
    }
    if (end === "completado") {
      const completed = await post(app, "/viajes/complete_trip.php", { trip_id: trip.id, precio_final: price });
      expect(completed.status, JSON.stringify(completed.body)).toBe(200);
      const pesos = Math.round(price);
      const stored = await app.db.trip.findUniqueOrThrow({ where: { id: trip.id } });
      expect(stored).toMatchObject({ precio_final: pesos, ...expectedSplit(pesos, metodo) });
      expected[driver]!.net += stored.ganancia_conductor!;
      if (metodo === "efectivo") expected[driver]!.cash += pesos;
    } else {
      expect((await post(app, "/viajes/cancel_trip.php", { trip_id: trip.id, motivo: "Cambio de planes" })).status).toBe(200);
    }
    await expectBalanced(drivers, expected);
  }
}

async function expectBalanced(drivers: Array<{ id: number }>, expected: Expected[]) {
  expect(await ledgerProblems(app.db)).toEqual([]);
  for (const [i, { id }] of drivers.entries()) {
    const account = await app.db.ledgerAccount.findUnique({ where: { codigo: `conductor:${id}` } });
    // Net earnings less the fares the driver collected in cash.
    expect(account?.saldo ?? 0).toBe(expected[i]!.net - expected[i]!.cash);
    const earned = await app.db.ledgerLine.aggregate({
      where: { concepto: "ganancia", cuenta: { conductor_id: id } },
      _sum: { monto: true },
    });
    for (const periodo of ["hoy", "total"]) {
      const report = await app.legacy("GET", `/conductor/get_earnings.php?conductor_id=${id}&periodo=${periodo}`);
      expect(report.status).toBe(200);
      expect(report.body.earnings.ganancia_total).toBe(earned._sum.monto ?? 0);
    }
  }
}

describe("the ledger, after every step of random trips", () => {
  it("balances every entry and itself, keeps each balance as the sum of its lines, and agrees with the earnings report", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 6 }), (steps) => run(steps)),
      { numRuns: 20 },
    );
    // Each run is some twenty calls through the whole service; on PostgreSQL that takes a while.
  }, 300_000);
});
