import { setTimeout as delay } from "node:timers/promises";
import { isDeepStrictEqual } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isUnavailable } from "../../src/db/client.js";
import { beginUnit, unitScope } from "../../src/db/unit.js";
import { createTestApp, type TestApp } from "../support/app.js";
import { createPgCluster, type PgCluster } from "../support/pg-cluster.js";
import { tripIn } from "../support/trips.js";

/**
 * Reads in flight while the PostgreSQL server restarts (`pg_ctl restart -m immediate`): each one
 * answers the row it always answers, or fails as a database that cannot serve now (a 503). None
 * may answer "no such row" for a row that is there: that turned a restart into a wrong branch
 * ("no pricing rate", "no such user") and a 500.
 */
let cluster: PgCluster;
let app: TestApp;

beforeAll(async () => {
  cluster = await createPgCluster();
  await cluster.sql("CREATE DATABASE servicio");
  app = await createTestApp({ env: { DATABASE_URL: cluster.url("servicio"), DATABASE_POOL_SIZE: "6", DATABASE_POOL_TIMEOUT_MS: "2000" } });
});

afterAll(async () => {
  try {
    await app?.close();
  } finally {
    await cluster?.destroy();
  }
});

/** Statements sent at once; each is judged on its own. */
type Read = () => Promise<Array<PromiseSettledResult<unknown>>>;

const alone =
  (read: () => Promise<unknown>): Read =>
  () =>
    Promise.allSettled([read()]);

/** The reads the service makes, in every way it makes them; each returns the same whenever it answers. */
async function reads(): Promise<Record<string, Read>> {
  const { trip, driver, passenger } = await tripIn(app, "aceptado");
  const { db, reads: planned } = app.server.deps;
  const tripWithDriver = {
    where: { id: trip.id },
    include: { conductor: { include: { perfil_conductor: { include: { vehiculo: true } } } } },
  };
  const driverAccount = { where: { id: driver.id }, include: { perfil_conductor: { include: { licencia: true, vehiculo: true } } } };
  const pending = {
    where: { estado: "aceptado", conductor_id: driver.id },
    orderBy: [{ fecha_solicitud: "desc" as const }, { id: "desc" as const }],
  };
  const rate = { where: { tipo_vehiculo: "auto" } };
  // Several at once, as a request's transaction sends them (quote() in trips/create.ts, say).
  const together = (tx: typeof db) =>
    Promise.allSettled([
      tx.trip.count({ where: { id: trip.id } }),
      tx.pricingRate.findUnique(rate),
      tx.trip.findUnique(tripWithDriver),
      tx.user.findMany({ where: { id: passenger.id } }),
    ]);
  return {
    "planned: a trip with its driver's vehicle": alone(() => planned.trip.findUnique(tripWithDriver)),
    "planned: a driver with licence and vehicle": alone(() => planned.user.findUnique(driverAccount)),
    "planned: a driver's trips": alone(() => planned.trip.findMany(pending)),
    "Prisma: a rate": alone(() => db.pricingRate.findUnique(rate)),
    "Prisma: the same user, asked for many times at once": () =>
      Promise.allSettled(
        Array.from({ length: 4 }, () => db.user.findUnique({ where: { id: passenger.id }, select: { id: true, email: true } })),
      ),
    "Prisma: a list": alone(() => db.trip.findMany(pending)),
    "Prisma: reads sent together in a transaction": () => db.$transaction((tx) => together(tx as typeof db)),
    "a request's unit: reads sent together": () =>
      unitScope(async () => {
        const unit = await beginUnit(db, { timeoutMs: 5000, maxWaitMs: 2000 });
        try {
          return await together(db);
        } finally {
          await unit.rollback().catch(() => undefined);
        }
      }),
  };
}

describe("reads while the database restarts", () => {
  it("answer their rows or fail as unavailable, never as absent", async () => {
    const all = await reads();
    const expected = new Map<string, unknown[]>();
    for (const [name, read] of Object.entries(all)) {
      const answers = (await read()).map((outcome) => (outcome.status === "fulfilled" ? outcome.value : outcome.reason));
      for (const answer of answers) expect(answer, name).toSatisfy((value) => Boolean(value) && !(value instanceof Error));
      expected.set(name, answers);
    }

    const wrong: string[] = [];
    const tally = { answered: 0, unavailable: 0 };
    let running = true;
    const keepReading = async (name: string, read: Read) => {
      while (running) {
        let outcomes: Array<PromiseSettledResult<unknown>>;
        try {
          outcomes = await read();
        } catch (error) {
          // The transaction around them could not begin or end.
          outcomes = [{ status: "rejected", reason: error }];
        }
        for (const [index, outcome] of outcomes.entries()) {
          if (outcome.status === "rejected") {
            tally.unavailable++;
            if (!isUnavailable(outcome.reason)) wrong.push(`${name} [${index}] failed with ${String(outcome.reason)}`);
            continue;
          }
          tally.answered++;
          if (!isDeepStrictEqual(outcome.value, expected.get(name)![index])) {
            wrong.push(`${name} [${index}] answered ${JSON.stringify(outcome.value)}`);
          }
        }
        if (outcomes.some((outcome) => outcome.status === "rejected")) await delay(5);
      }
    };
    const readers = Object.entries(all).flatMap(([name, read]) => [keepReading(name, read), keepReading(name, read)]);
    for (let round = 0; round < 6; round++) {
      await delay(250 + round * 37);
      await cluster.restart("immediate");
    }
    await delay(500);
    running = false;
    await Promise.all(readers);
    expect(wrong).toEqual([]);
    // The restarts cut reads off, and reads went on between them.
    expect(tally.unavailable).toBeGreaterThan(0);
    expect(tally.answered).toBeGreaterThan(tally.unavailable);
  });
});
