import Sqlite from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { sqliteFile } from "../../src/db/url.js";
import { migratedDatabase } from "../support/database.js";

/** Two processes writing one SQLite file: a transaction that read first never loses its write to the other's. */
const migrated = migratedDatabase("sqlite");

describe("a transaction on a SQLite file another process writes", () => {
  it("holds the write lock from its start, so the other waits and its own write after a read succeeds", async () => {
    const other = new Sqlite(sqliteFile(migrated.url), { timeout: 0 });
    try {
      let othersWrite: unknown = null;
      const created = await migrated.db.prisma.$transaction(async (tx) => {
        await tx.pricingRate.findUnique({ where: { tipo_vehiculo: "auto" } });
        // Begun deferred, the transaction would hold only a snapshot here: the other's write would
        // succeed, and the write below would fail at once with SQLITE_BUSY.
        try {
          other.prepare("INSERT INTO empresas (nombre, nit, actualizado_en) VALUES ('Otra', '800', 0)").run();
        } catch (error) {
          othersWrite = error;
        }
        return tx.company.create({ data: { nombre: "Primera", nit: "801" } });
      });
      expect(created).toMatchObject({ nombre: "Primera" });
      expect(othersWrite).toMatchObject({ code: "SQLITE_BUSY" });
    } finally {
      other.close();
    }
  });
});
