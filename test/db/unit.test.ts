import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { afterCommit, beginUnit, ifUndone, unitScope } from "../../src/db/unit.js";
import { createTestApp, type TestApp } from "../support/app.js";

/** A unit of work: every statement of a scope in one transaction, nested transactions as savepoints, effects after the commit. */
let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(() => app.close());

const OPTIONS = { timeoutMs: 10_000, maxWaitMs: 5_000 };
const nit = () => String(100_000_000 + Math.floor(Math.random() * 800_000_000));
const company = (name: string) => app.db.company.create({ data: { nombre: name, nit: nit() } });
const named = (name: string) => app.db.company.count({ where: { nombre: name } });

describe("a unit of work", () => {
  it("commits every statement made through the database client, and runs what waited for the commit after it", async () => {
    const heard: string[] = [];
    await unitScope(async () => {
      const unit = await beginUnit(app.db, OPTIONS);
      await company("unidad-confirmada");
      afterCommit(() => heard.push("después"));
      expect(heard).toEqual([]);
      await unit.commit();
    });
    expect(heard).toEqual(["después"]);
    expect(await named("unidad-confirmada")).toBe(1);
  });

  it("undoes every statement on rollback, and never runs what waited for a commit", async () => {
    const heard: string[] = [];
    await unitScope(async () => {
      const unit = await beginUnit(app.db, OPTIONS);
      await company("unidad-deshecha");
      await app.db.$transaction(async (tx) => tx.company.create({ data: { nombre: "unidad-deshecha", nit: nit() } }));
      afterCommit(() => heard.push("nunca"));
      await unit.rollback();
    });
    expect(heard).toEqual([]);
    expect(await named("unidad-deshecha")).toBe(0);
  });

  it("runs what was decided in memory on its strength again when it is undone, and never when it commits", async () => {
    const undone: string[] = [];
    await unitScope(async () => {
      const unit = await beginUnit(app.db, OPTIONS);
      ifUndone(() => undone.push("confirmada"));
      await unit.commit();
    });
    await unitScope(async () => {
      const unit = await beginUnit(app.db, OPTIONS);
      ifUndone(() => undone.push("deshecha"));
      await unit.rollback();
    });
    // Outside a unit nothing can be undone.
    ifUndone(() => undone.push("sin unidad"));
    expect(undone).toEqual(["deshecha"]);
  });

  it("undoes only a failed nested transaction's own work, keeping the rest of the unit", async () => {
    await unitScope(async () => {
      const unit = await beginUnit(app.db, OPTIONS);
      await company("unidad-antes");
      await expect(
        app.db.$transaction(async (tx) => {
          await tx.company.create({ data: { nombre: "unidad-fallida", nit: nit() } });
          throw new Error("falla a propósito");
        }),
      ).rejects.toThrow("falla a propósito");
      // A batch is a nested transaction too.
      await app.db.$transaction([app.db.company.create({ data: { nombre: "unidad-lote", nit: nit() } })]);
      await unit.commit();
    });
    expect([await named("unidad-antes"), await named("unidad-fallida"), await named("unidad-lote")]).toEqual([1, 0, 1]);
  });

  it("takes nested transactions begun together one at a time", async () => {
    await unitScope(async () => {
      const unit = await beginUnit(app.db, OPTIONS);
      const attempts = ["ok", "falla", "ok", "falla", "ok"].map((outcome, i) =>
        app.db.$transaction(async (tx) => {
          await tx.company.create({ data: { nombre: `unidad-turno-${outcome}`, nit: nit() } });
          await new Promise((resolve) => setTimeout(resolve, 5 - i));
          if (outcome === "falla") throw new Error(outcome);
        }),
      );
      const settled = await Promise.allSettled(attempts);
      expect(settled.map((result) => result.status)).toEqual(["fulfilled", "rejected", "fulfilled", "rejected", "fulfilled"]);
      await unit.commit();
    });
    expect([await named("unidad-turno-ok"), await named("unidad-turno-falla")]).toEqual([3, 0]);
  });

  it("leaves code outside it, and after it, on the database itself", async () => {
    const outside = await company("fuera-de-unidad");
    expect(outside.id).toBeGreaterThan(0);
    let later: Promise<unknown> = Promise.resolve();
    await unitScope(async () => {
      const unit = await beginUnit(app.db, OPTIONS);
      // Work the request leaves behind runs after the unit ended: on the database, not on a closed transaction.
      later = new Promise((resolve) => setTimeout(resolve, 20)).then(() => company("tras-la-unidad"));
      await unit.rollback();
    });
    await later;
    expect(await named("tras-la-unidad")).toBe(1);
  });
});
