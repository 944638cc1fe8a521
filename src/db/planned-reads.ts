import Sqlite from "better-sqlite3";
import pg from "pg";
import type { Db } from "./client.js";
import { modelOf, ReadPlanner, type ReadKind } from "./read-plan.js";
import { inUnit } from "./unit.js";
import type { Provider } from "./url.js";

/** Runs a planned statement, its rows as arrays of column values. */
export interface Reader {
  run(sql: string, params: unknown[]): Promise<unknown[][]>;
  close(): void;
}

// Statements of a few hundred shapes at most; a bound all the same, for `in` lists of many lengths.
const MOST_STATEMENTS = 1000;

/**
 * SQLite: a connection of its own that only reads. In WAL mode it sees every committed change and
 * nothing of a transaction still open on the writing connection, and never waits for one.
 */
export function sqliteReader(file: string, onQuery?: (sql: string) => void): Reader {
  const connection = new Sqlite(file, { timeout: 5000 });
  connection.pragma("query_only = 1");
  const statements = new Map<string, Sqlite.Statement>();
  return {
    run: async (sql, params) => {
      onQuery?.(sql);
      let statement = statements.get(sql);
      if (!statement) {
        if (statements.size >= MOST_STATEMENTS) statements.delete(statements.keys().next().value!);
        statement = connection.prepare(sql).raw(true);
        statements.set(sql, statement);
      }
      return statement.all(params) as unknown[][];
    },
    close: () => connection.close(),
  };
}

// Timestamps as their text: pg would read a timestamp without zone in the process's own zone.
const asText = (value: string) => value;
const TYPES = {
  getTypeParser: (oid: number, format?: string) => (oid === 1114 || oid === 1184 ? asText : pg.types.getTypeParser(oid, format as never)),
};

/** PostgreSQL: the service's pool, each statement prepared once per connection under a name of its own. */
export function postgresReader(pool: pg.Pool, onQuery?: (sql: string) => void): Reader {
  const names = new Map<string, string>();
  let named = 0;
  return {
    run: async (sql, params) => {
      onQuery?.(sql);
      let name = names.get(sql);
      if (!name) {
        if (names.size >= MOST_STATEMENTS) names.delete(names.keys().next().value!);
        // Never a name used before: a connection may still hold it prepared with other text.
        name = `lectura_${++named}`;
        names.set(sql, name);
      }
      const result = await pool.query({ name, text: sql, values: params, rowMode: "array", types: TYPES });
      return result.rows as unknown[][];
    },
    close: () => undefined,
  };
}

type Delegates = { [K in keyof Db]: Db[K] extends { findMany: unknown } ? K : never }[keyof Db];
/** Prisma's reads of every model, planned as one statement run by the driver when they can be. */
export type Reads = { [K in Delegates]: Pick<Db[K], ReadKind> };
/** What reads these models: `deps.reads`, or the client itself (`deps.db`, a transaction). */
export type ReadsOf<K extends Delegates> = Pick<Reads, K>;

/**
 * Reads as `db` makes them, answered the same: planned and run by `reader` when the read is simple
 * enough (see read-plan.ts) and no unit of work is open in the caller's scope; otherwise by `db`,
 * inside a unit its transaction, so that a request reads what it wrote.
 */
export function plannedReads(db: Db, provider: Provider, reader: Reader | null): Reads {
  const planner = new ReadPlanner(provider);
  const delegates = new Map<string, Record<ReadKind, (args?: Record<string, unknown>) => Promise<unknown>>>();
  const read = async (delegate: string, kind: ReadKind, args?: Record<string, unknown>) => {
    const model = modelOf(delegate);
    const plan = reader && model && !inUnit() ? planner.plan(model, kind, args) : null;
    // biome-ignore lint/plugin: every delegate has these three reads, each taking its own arguments
    if (!plan) return (db as unknown as Record<string, Record<ReadKind, (a: unknown) => Promise<unknown>>>)[delegate]![kind](args);
    const rows = plan.build(await reader!.run(plan.sql, plan.params));
    return kind === "findMany" ? rows : (rows[0] ?? null);
  };
  const reads = new Proxy(
    {},
    {
      get(_target, delegate) {
        if (typeof delegate !== "string") return undefined;
        let methods = delegates.get(delegate);
        if (!methods) {
          methods = {
            findUnique: (args) => read(delegate, "findUnique", args),
            findFirst: (args) => read(delegate, "findFirst", args),
            findMany: (args) => read(delegate, "findMany", args),
          };
          delegates.set(delegate, methods);
        }
        return methods;
      },
    },
  );
  // biome-ignore lint/plugin: the proxy answers each delegate's reads with Prisma's own types (see `read`)
  return reads as unknown as Reads;
}
