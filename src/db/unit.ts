import { AsyncLocalStorage } from "node:async_hooks";
import type { Db, Tx } from "./client.js";

/*
 * A unit of work: one request whose every database statement runs in one transaction, so that
 * what it changes and the answer kept for it (src/http/idempotency.ts) commit together or not at
 * all. Code keeps using `deps.db`: inside a unit that client is the unit's transaction, a nested
 * `$transaction` is a savepoint, and what must only happen once the work is committed (events,
 * mail) waits for the commit.
 */

interface Unit {
  tx: Tx;
  open: boolean;
  /** Run once the unit commits, outside it; dropped if it rolls back. */
  effects: Array<() => void>;
  /** Run if it is undone instead: what was decided in memory on the strength of its work. */
  undo: Array<() => void>;
  savepoints: number;
  /** Nested transactions take turns: savepoints are a stack. */
  turn: Promise<unknown>;
}

/** Each request that may hold a unit runs in a scope of its own; the unit is put there once it begins. */
const scopes = new AsyncLocalStorage<{ unit: Unit | null }>();

const current = (): Unit | null => {
  const unit = scopes.getStore()?.unit;
  return unit?.open ? unit : null;
};

/** Whether the caller's scope has a unit open: its statements must then run on the unit's transaction. */
export const inUnit = (): boolean => current() !== null;

/** Runs `work` in a scope where a unit may begin (see `beginUnit`); outside one, code uses the database directly. */
export const unitScope = <T>(work: () => T): T => scopes.run({ unit: null }, work);

/** Runs `fn` now, or, inside a unit, once it commits (and never if it rolls back). */
export function afterCommit(fn: () => void): void {
  const unit = current();
  if (unit) unit.effects.push(fn);
  else fn();
}

/** Inside a unit, runs `fn` if the unit is undone (rolled back, or its commit failed); outside one, never. */
export function ifUndone(fn: () => void): void {
  current()?.undo.push(fn);
}

/** The client code uses: the database, or inside a unit its transaction. */
export function unitAware(db: Db): Db {
  return new Proxy(db, {
    get(target, property, receiver) {
      const unit = current();
      if (!unit) return Reflect.get(target, property, receiver);
      if (property === "$transaction") return (work: unknown) => nested(unit, work);
      return Reflect.get(unit.tx, property);
    },
  });
}

/** A transaction inside the unit: a savepoint, so that its failure undoes only its own work. */
function nested(unit: Unit, work: unknown): Promise<unknown> {
  const run = async () => {
    const name = `unidad_${++unit.savepoints}`;
    await unit.tx.$executeRawUnsafe(`SAVEPOINT ${name}`);
    try {
      const result = Array.isArray(work)
        ? await sequence(work as Array<Promise<unknown>>)
        : await (work as (tx: Tx) => Promise<unknown>)(unit.tx);
      await unit.tx.$executeRawUnsafe(`RELEASE SAVEPOINT ${name}`);
      return result;
    } catch (error) {
      await unit.tx.$executeRawUnsafe(`ROLLBACK TO SAVEPOINT ${name}`).catch(() => undefined);
      throw error;
    }
  };
  const result = unit.turn.then(run, run);
  unit.turn = result.catch(() => undefined);
  return result;
}

/** A batch of statements made on the unit's transaction, run in order. */
async function sequence(statements: Array<Promise<unknown>>): Promise<unknown[]> {
  const results: unknown[] = [];
  for (const statement of statements) results.push(await statement);
  return results;
}

export interface OpenUnit {
  tx: Tx;
  /** Commits the unit's work, then runs what waited for it. */
  commit(): Promise<void>;
  /** Undoes the unit's work. */
  rollback(): Promise<void>;
}

class Rollback extends Error {}

/** The unit could not begin in time: the database was busy with others' work (on SQLite, another unit). */
export class UnitWaitTimeout extends Error {}

/**
 * Begins a unit in the current scope (see `unitScope`): from now on the scope's statements run in
 * one transaction, until `commit` or `rollback`. What waits for the commit must not throw.
 */
export async function beginUnit(db: Db, options: { timeoutMs: number; maxWaitMs: number }): Promise<OpenUnit> {
  const scope = scopes.getStore();
  if (!scope) throw new Error("a unit begins only inside unitScope");
  let ready!: (unit: Unit) => void;
  let end!: (commit: boolean) => void;
  let abandoned = false;
  const started = new Promise<Unit>((resolve) => (ready = resolve));
  const ended = new Promise<boolean>((resolve) => (end = resolve));
  const transaction: Promise<Unit> = db.$transaction(
    async (tx) => {
      // Begun after its caller stopped waiting: nobody will use it.
      if (abandoned) throw new Rollback();
      const unit: Unit = { tx, open: true, effects: [], undo: [], savepoints: 0, turn: Promise.resolve() };
      ready(unit);
      const commit = await ended;
      unit.open = false;
      await unit.turn;
      if (!commit) throw new Rollback();
      return unit;
    },
    { timeout: options.timeoutMs, maxWait: options.maxWaitMs },
  );
  // A transaction that could not begin (no connection in time, the database away) ends the wait for it.
  const unit = await new Promise<Unit>((resolve, reject) => {
    const timer = setTimeout(() => {
      abandoned = true;
      reject(new UnitWaitTimeout(`the unit could not begin within ${options.maxWaitMs} ms`));
    }, options.maxWaitMs);
    started.then((begun) => {
      clearTimeout(timer);
      resolve(begun);
    });
    transaction.catch((error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
  scope.unit = unit;
  const finish = async (commit: boolean) => {
    end(commit);
    try {
      await transaction;
    } catch (error) {
      if (!(error instanceof Rollback)) throw error;
    } finally {
      unit.open = false;
      scope.unit = null;
    }
  };
  const undone = () => {
    for (const fn of unit.undo) fn();
  };
  return {
    tx: unit.tx,
    commit: async () => {
      try {
        await finish(true);
      } catch (error) {
        undone();
        throw error;
      }
      // Outside the unit now: what runs here uses the database itself.
      for (const effect of unit.effects) effect();
    },
    rollback: () => finish(false).finally(undone),
  };
}
