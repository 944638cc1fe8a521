import Sqlite from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, unavailableReason, type Database } from "../../src/db/client.js";
import { applyMigrations } from "../../src/db/migrate.js";
import { sqliteFile } from "../../src/db/url.js";
import { createTestDatabase, type TestDatabase } from "../support/database.js";

/** A SQLite file another process is writing to: the service's writes wait, then are turned away as retryable. */
let database: TestDatabase;
let db: Database;
beforeAll(async () => {
  database = await createTestDatabase("sqlite");
  await applyMigrations(database.url);
  db = await openDatabase(database.url);
});
afterAll(async () => {
  await db.close();
  await database.drop();
});

describe("a SQLite database locked by another writer", () => {
  it("is a database that cannot serve now", async () => {
    const other = new Sqlite(sqliteFile(database.url));
    try {
      other.prepare("BEGIN IMMEDIATE").run();
      const error = await db.prisma.company.create({ data: { nombre: "Bloqueada", nit: "900" } }).then(
        () => null,
        (failure: unknown) => failure,
      );
      expect(unavailableReason(error)).toMatch(/^P1008 /);
    } finally {
      other.close();
    }
  });

  it("fails a transaction's write as unavailable, and the reads sent with it answer their rows, never nothing", async () => {
    const other = new Sqlite(sqliteFile(database.url));
    try {
      other.prepare("BEGIN IMMEDIATE").run();
      const [write, rate, rates] = await db.prisma.$transaction((tx) =>
        Promise.allSettled([
          tx.company.create({ data: { nombre: "Bloqueada", nit: "901" } }),
          tx.pricingRate.findUnique({ where: { tipo_vehiculo: "auto" } }),
          tx.pricingRate.findMany({ where: { tipo_vehiculo: "moto" } }),
        ]),
      );
      expect(write!.status === "rejected" && unavailableReason(write.reason)).toMatch(/^P1008 /);
      expect(rate).toMatchObject({ status: "fulfilled", value: { tipo_vehiculo: "auto" } });
      expect(rates).toMatchObject({ status: "fulfilled", value: [{ tipo_vehiculo: "moto" }] });
    } finally {
      other.close();
    }
  });
});
