import { describe, expect, it } from "vitest";
import { migratedDatabase } from "../support/database.js";

const migrated = migratedDatabase();

const company = (nit: string) => ({ nombre: `Empresa ${nit}`, nit });

/** What `work` answers, or a failure if it has not answered in 5 s: a database held for good answers nothing. */
async function answered<T>(work: Promise<T>): Promise<T> {
  let timer!: NodeJS.Timeout;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error("sin respuesta en 5 s: la base de datos quedó retenida")), 5000);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

describe("transactions", () => {
  it("keep a write made outside them while they are open, when they roll back", async () => {
    let release!: () => void;
    const hold = new Promise<void>((resolve) => (release = resolve));
    let opened!: () => void;
    const isOpen = new Promise<void>((resolve) => (opened = resolve));
    const failing = migrated.db.prisma
      .$transaction(async (tx) => {
        await tx.company.create({ data: company("dentro") });
        opened();
        await hold;
        throw new Error("rollback");
      })
      .catch((error: Error) => error.message);
    await isOpen;
    const outside = migrated.db.prisma.company.create({ data: company("fuera") });
    // Time enough for the outside write to run, if nothing makes it wait for the transaction.
    await new Promise((resolve) => setTimeout(resolve, 200));
    release();
    expect(await failing).toBe("rollback");
    await outside;
    const nits = (await migrated.db.prisma.company.findMany()).map((c) => c.nit);
    expect(nits).toContain("fuera");
    expect(nits).not.toContain("dentro");
  });

  it("let go of the database when their ROLLBACK fails, the database having ended them already", async () => {
    const failing = migrated.db.prisma.$transaction(async (tx) => {
      await tx.company.create({ data: company("terminada") });
      // SQLite ends a transaction itself on some errors (a full disk, an I/O error); the ROLLBACK sent after it then fails.
      await tx.$executeRawUnsafe("ROLLBACK");
      throw new Error("fallo");
    });
    await expect(failing).rejects.toThrow("fallo");
    expect(await answered(migrated.db.prisma.company.count({ where: { nit: "terminada" } }))).toBe(0);
    expect(await answered(migrated.db.prisma.$transaction((tx) => tx.company.create({ data: company("despues") })))).toMatchObject({
      nit: "despues",
    });
  });

  it("undo their work and let go of the database when their COMMIT fails", async () => {
    const failing = migrated.db.prisma.$transaction(async (tx) => {
      // SQLite checks these foreign keys at COMMIT, which then fails with the transaction still open.
      // PostgreSQL cannot defer them, so there the insert fails instead: the outcome must be the same.
      await tx.$executeRawUnsafe(migrated.db.provider === "sqlite" ? "PRAGMA defer_foreign_keys = ON" : "SET CONSTRAINTS ALL DEFERRED");
      await tx.company.create({ data: company("huerfana") });
      await tx.userLocation.create({ data: { usuario_id: 535353 } });
    });
    await expect(failing).rejects.toThrow();
    expect(await answered(migrated.db.prisma.company.count({ where: { nit: "huerfana" } }))).toBe(0);
    expect(await answered(migrated.db.prisma.$transaction((tx) => tx.company.create({ data: company("luego") })))).toMatchObject({
      nit: "luego",
    });
  });

  it("answer each statement sent at once on its own: one that fails leaves the others' answers whole, never empty", async () => {
    // Statements a transaction is sent in one tick: before each was sent on its own, those after a
    // failed one answered undefined, which a read took for "no such row".
    const outcomes = await migrated.db.prisma.$transaction(async (tx) =>
      Promise.allSettled([
        tx.$queryRawUnsafe("SELECT * FROM tabla_que_no_existe"),
        tx.pricingRate.findUnique({ where: { tipo_vehiculo: "auto" } }),
        tx.pricingRate.findMany({ where: { tipo_vehiculo: "moto" } }),
        tx.pricingRate.count(),
      ]),
    );
    expect(outcomes[0]!.status).toBe("rejected");
    const [, rate, rates, count] = outcomes;
    // SQLite goes on after a failed statement; PostgreSQL refuses the rest of the transaction. Neither answers empty.
    if (migrated.db.provider === "sqlite") {
      expect(rate).toMatchObject({ status: "fulfilled", value: { tipo_vehiculo: "auto" } });
      expect(rates).toMatchObject({ status: "fulfilled", value: [{ tipo_vehiculo: "moto" }] });
      expect(count).toEqual({ status: "fulfilled", value: 3 });
    } else {
      for (const outcome of [rate, rates, count]) expect(outcome!.status).toBe("rejected");
    }
  });

  it("enforce foreign keys and cascades", async () => {
    await expect(migrated.db.prisma.userLocation.create({ data: { usuario_id: 424242 } })).rejects.toThrow();
    const user = await migrated.db.prisma.user.create({
      data: { nombre: "A", apellido: "B", email: "fk@example.com", telefono: "3000000", password_hash: "x", ubicaciones: { create: {} } },
    });
    await migrated.db.prisma.user.delete({ where: { id: user.id } });
    expect(await migrated.db.prisma.userLocation.count({ where: { usuario_id: user.id } })).toBe(0);
  });
});
