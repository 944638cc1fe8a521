import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../../src/db/client.js";
import { applyMigrations } from "../../src/db/migrate.js";
import { createTestDatabase, type TestDatabase } from "../support/database.js";

let database: TestDatabase;
let db: Database;
beforeAll(async () => {
  database = await createTestDatabase();
  await applyMigrations(database.url);
  db = await openDatabase(database.url);
});
afterAll(async () => {
  await db.close();
  await database.drop();
});

const company = (nit: string) => ({ nombre: `Empresa ${nit}`, nit });

describe("transactions", () => {
  it("keep a write made outside them while they are open, when they roll back", async () => {
    let release!: () => void;
    const hold = new Promise<void>((resolve) => (release = resolve));
    let opened!: () => void;
    const isOpen = new Promise<void>((resolve) => (opened = resolve));
    const failing = db.prisma
      .$transaction(async (tx) => {
        await tx.company.create({ data: company("dentro") });
        opened();
        await hold;
        throw new Error("rollback");
      })
      .catch((error: Error) => error.message);
    await isOpen;
    const outside = db.prisma.company.create({ data: company("fuera") });
    // Time enough for the outside write to run, if nothing makes it wait for the transaction.
    await new Promise((resolve) => setTimeout(resolve, 200));
    release();
    expect(await failing).toBe("rollback");
    await outside;
    const nits = (await db.prisma.company.findMany()).map((c) => c.nit);
    expect(nits).toContain("fuera");
    expect(nits).not.toContain("dentro");
  });

  it("enforce foreign keys and cascades", async () => {
    await expect(db.prisma.userLocation.create({ data: { usuario_id: 424242 } })).rejects.toThrow();
    const user = await db.prisma.user.create({
      data: { nombre: "A", apellido: "B", email: "fk@example.com", telefono: "3000000", password_hash: "x", ubicaciones: { create: {} } },
    });
    await db.prisma.user.delete({ where: { id: user.id } });
    expect(await db.prisma.userLocation.count({ where: { usuario_id: user.id } })).toBe(0);
  });
});
