import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isUniqueViolation, isUnavailable, openDatabase, unavailableReason, type Database } from "../../src/db/client.js";
import { applyMigrations } from "../../src/db/migrate.js";
import { NotFoundError } from "../../src/domain/errors.js";
import { createPgCluster, type PgCluster } from "../support/pg-cluster.js";

/**
 * What the service takes for a database that cannot serve now, checked against the errors a real
 * PostgreSQL server makes Prisma and node-postgres throw: refused, cut, crashed, starting up, out
 * of connections, in conflict. Each test leaves the server running.
 */
let cluster: PgCluster;
let url: string;
let db: Database;

beforeAll(async () => {
  cluster = await createPgCluster();
  await cluster.sql("CREATE DATABASE clasificacion");
  url = cluster.url("clasificacion");
  await applyMigrations(url);
  db = await openDatabase(url, { poolSize: 4, poolTimeoutMs: 1000 });
});

afterAll(async () => {
  try {
    await db?.close();
  } finally {
    await cluster?.destroy();
  }
});

/** The error `work` fails with. */
const failure = (work: () => Promise<unknown>) =>
  work().then(
    () => {
      throw new Error("expected a failure");
    },
    (error: unknown) => error,
  );

/** Every way the service reads and writes: a model query, raw SQL, a batch and an interactive transaction. */
const ways = (database: Database) => ({
  model: () => database.prisma.user.findFirst(),
  raw: () => database.prisma.$queryRawUnsafe("SELECT 1"),
  batch: () => database.prisma.$transaction([database.prisma.user.count(), database.prisma.trip.count()]),
  interactive: () => database.prisma.$transaction(async (tx) => tx.user.count()),
});

async function everyWay(database: Database) {
  const errors: Record<string, unknown> = {};
  for (const [name, work] of Object.entries(ways(database))) errors[name] = await failure(work);
  return errors;
}

const reasons = (errors: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(errors).map(([name, e]) => [name, unavailableReason(e)]));

describe("a database that cannot serve now", () => {
  it("is a server that refuses connections (stopped), however it is asked", async () => {
    await cluster.stop("immediate");
    try {
      expect(reasons(await everyWay(db))).toEqual({
        model: expect.stringMatching(/^P1001 Can't reach database server/),
        raw: expect.stringMatching(/^DatabaseNotReachable$/),
        batch: expect.stringMatching(/^P1001 /),
        interactive: expect.stringMatching(/^P1001 /),
      });
    } finally {
      await cluster.start();
    }
  });

  it("is a connection cut while a query runs: by the server crashing, or by an administrator", async () => {
    const sleeping = () => failure(() => db.prisma.$queryRawUnsafe("SELECT pg_sleep(5)::text"));
    const held = () =>
      failure(() =>
        db.prisma.$transaction(
          async (tx) => {
            await tx.user.count();
            await delay(1500);
            await tx.user.count();
          },
          { timeout: 10_000 },
        ),
      );
    const crashed = [sleeping(), held()];
    await delay(300);
    await cluster.restart("immediate");
    const [cut, broken] = await Promise.all(crashed);
    expect(unavailableReason(cut)).toBe("Connection terminated unexpectedly");
    expect(unavailableReason(broken)).toBe("Client has encountered a connection error and is not queryable");

    const terminated = sleeping();
    await delay(300);
    await cluster.sql(
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE '%pg_sleep(5)%' AND pid <> pg_backend_pid()",
    );
    expect(unavailableReason(await terminated)).toMatch(/^57P01 terminating connection due to administrator command$/);
  });

  it("is a server that is not accepting connections yet (57P03)", async () => {
    // A standby that may not be read answers every connection as a server still starting up does.
    const data = await cluster.sql("SHOW data_directory");
    await cluster.sql("ALTER SYSTEM SET hot_standby = off");
    await cluster.stop("fast");
    writeFileSync(join(data, "standby.signal"), "");
    try {
      await cluster.start();
      const errors = await everyWay(db);
      for (const error of Object.values(errors)) expect(unavailableReason(error)).toMatch(/^57P03 /);
      // Thrown by the adapter itself for model queries, with the SQLSTATE in its cause.
      expect(errors.model).toMatchObject({ name: "DriverAdapterError", cause: { code: "57P03" } });
    } finally {
      await cluster.stop("fast");
      rmSync(join(data, "standby.signal"));
      await cluster.start();
      // Coming out of a standby's recovery, it may refuse connections for a moment after starting.
      await cluster.ready();
      await cluster.sql("ALTER SYSTEM RESET hot_standby");
    }
  });

  it("is a server out of connections for us (53300), or a pool with none free in time", async () => {
    await cluster.sql("CREATE ROLE limitado LOGIN");
    await cluster.sql("CREATE DATABASE limitada CONNECTION LIMIT 1 OWNER limitado");
    const limited = await openDatabase(`postgresql://limitado@127.0.0.1:${cluster.port}/limitada`, { poolSize: 2, poolTimeoutMs: 5000 });
    try {
      const held = limited.prisma.$transaction(async (tx) => {
        await tx.$queryRawUnsafe("SELECT 1");
        await delay(1000);
      });
      await delay(200);
      const [raw, interactive] = await Promise.all([
        failure(() => limited.prisma.$queryRawUnsafe("SELECT 1")),
        failure(() => limited.prisma.$transaction(async (tx) => tx.$queryRawUnsafe("SELECT 1"))),
      ]);
      await held;
      expect(unavailableReason(raw)).toMatch(/^TooManyConnections$/);
      expect(unavailableReason(interactive)).toMatch(/^P2037 /);
    } finally {
      await limited.close();
    }

    const small = await openDatabase(url, { poolSize: 1, poolTimeoutMs: 200 });
    try {
      const held = small.prisma.$transaction(async (tx) => {
        await tx.$queryRawUnsafe("SELECT 1");
        await delay(1000);
      });
      await delay(100);
      expect(unavailableReason(await failure(() => small.prisma.user.count()))).toBe("timeout exceeded when trying to connect");
      await held;
    } finally {
      await small.close();
    }
  });

  it("is a write that conflicts with another transaction's (40001)", async () => {
    const email = `conflicto.${Date.now()}@example.com`;
    const user = await db.prisma.user.create({
      data: { email, nombre: "C", apellido: "C", telefono: "3000000000", password_hash: "x", tipo_usuario: "pasajero" },
    });
    let bothRead!: () => void;
    const reads = new Promise<void>((resolve) => (bothRead = resolve));
    let read = 0;
    const bump = () =>
      db.prisma.$transaction(
        async (tx) => {
          const { nombre } = await tx.user.findUniqueOrThrow({ where: { id: user.id } });
          if (++read === 2) bothRead();
          await reads;
          await tx.user.update({ where: { id: user.id }, data: { nombre: `${nombre}+` } });
        },
        { isolationLevel: "Serializable" },
      );
    const outcomes = await Promise.allSettled([bump(), bump()]);
    const rejected = outcomes.filter((outcome): outcome is PromiseRejectedResult => outcome.status === "rejected");
    expect(rejected).toHaveLength(1);
    expect(unavailableReason(rejected[0]!.reason)).toMatch(/^P2034 /);
  });

  it("is not a refusal of the data, a mistake in SQL, nor any other error", async () => {
    const taken = await db.prisma.user.findFirstOrThrow({ select: { email: true } });
    const duplicate = await failure(() =>
      db.prisma.user.create({
        data: { email: taken.email, nombre: "D", apellido: "D", telefono: "3000000000", password_hash: "x", tipo_usuario: "pasajero" },
      }),
    );
    expect(isUniqueViolation(duplicate)).toBe(true);
    const mistakes = [
      duplicate,
      await failure(() => db.prisma.$queryRawUnsafe("SELEC 1")),
      await failure(() => db.prisma.$queryRawUnsafe("SELECT * FROM no_existe")),
      new NotFoundError("No existe el viaje 7"),
      new Error("algo salió mal"),
      "texto",
      null,
    ];
    expect(mistakes.map(isUnavailable)).toEqual(mistakes.map(() => false));
  });

  it("leaves no connection lent out for good when a transaction's connection breaks", async () => {
    const own = await openDatabase(url, { poolSize: 2, poolTimeoutMs: 1000 });
    try {
      const held = () =>
        failure(() =>
          own.prisma.$transaction(
            async (tx) => {
              await tx.user.count();
              await delay(1500);
              await tx.user.count();
            },
            { timeout: 10_000 },
          ),
        );
      const broken = [held(), held()];
      await delay(300);
      await cluster.restart("immediate");
      expect((await Promise.all(broken)).map(isUnavailable)).toEqual([true, true]);
      expect(own.poolState()).toEqual({ inUse: 0, waiting: 0 });
      // Both connections are there to be had: two transactions at once, each waiting for the other.
      let entered = 0;
      let bothIn!: () => void;
      const together = new Promise<void>((resolve) => (bothIn = resolve));
      const meet = () =>
        own.prisma.$transaction(async (tx) => {
          await tx.user.count();
          if (++entered === 2) bothIn();
          await together;
        });
      await Promise.all([meet(), meet()]);
    } finally {
      await own.close();
    }
  });
});
