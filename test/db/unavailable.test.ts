import Sqlite from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { unavailableReason } from "../../src/db/client.js";
import { sqliteFile } from "../../src/db/url.js";
import { migratedDatabase } from "../support/database.js";

/** A SQLite file another process is writing to: the service's writes wait, then are turned away as retryable. */
const migrated = migratedDatabase("sqlite");

describe("a SQLite database locked by another writer", () => {
  it("is a database that cannot serve now", async () => {
    const other = new Sqlite(sqliteFile(migrated.url));
    try {
      other.prepare("BEGIN IMMEDIATE").run();
      const error = await migrated.db.prisma.company.create({ data: { nombre: "Bloqueada", nit: "900" } }).then(
        () => null,
        (failure: unknown) => failure,
      );
      expect(unavailableReason(error)).toMatch(/^P1008 /);
    } finally {
      other.close();
    }
  });

  it("fails a transaction that cannot take the write lock as unavailable", async () => {
    const other = new Sqlite(sqliteFile(migrated.url));
    try {
      other.prepare("BEGIN IMMEDIATE").run();
      const error = await migrated.db.prisma
        .$transaction((tx) => tx.company.create({ data: { nombre: "Bloqueada", nit: "901" } }))
        .then(
          () => null,
          (failure: unknown) => failure,
        );
      expect(unavailableReason(error)).toBeTruthy();
    } finally {
      other.close();
    }
    // Its failed start let the connection go: the next transaction runs.
    expect(await migrated.db.prisma.$transaction((tx) => tx.company.create({ data: { nombre: "Libre", nit: "903" } }))).toMatchObject({
      nit: "903",
    });
  });
});

describe("a transaction whose write fails", () => {
  it("still answers the reads sent with it with their rows, never nothing", async () => {
    await migrated.db.prisma.company.create({ data: { nombre: "Primera", nit: "902" } });
    const [write, rate, rates] = await migrated.db.prisma.$transaction((tx) =>
      Promise.allSettled([
        tx.company.create({ data: { nombre: "Repetida", nit: "902" } }),
        tx.pricingRate.findUnique({ where: { tipo_vehiculo: "auto" } }),
        tx.pricingRate.findMany({ where: { tipo_vehiculo: "moto" } }),
      ]),
    );
    expect(write).toMatchObject({ status: "rejected", reason: { code: "P2002" } });
    expect(rate).toMatchObject({ status: "fulfilled", value: { tipo_vehiculo: "auto" } });
    expect(rates).toMatchObject({ status: "fulfilled", value: [{ tipo_vehiculo: "moto" }] });
  });
});
