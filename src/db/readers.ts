import Sqlite from "better-sqlite3";
import pg from "pg";

/** Runs a planned statement, its rows as arrays of column values. */
export interface Reader {
  run(sql: string, params: unknown[]): Promise<unknown[][]>;
  close(): void;
}

// Statements of a few hundred shapes at most; a bound all the same, for `in` lists of many lengths.
const MOST_STATEMENTS = 1000;

/** What `cache` keeps for `sql`, made the first time; past MOST_STATEMENTS the oldest goes. */
function cached<V>(cache: Map<string, V>, sql: string, make: () => V): V {
  let value = cache.get(sql);
  if (value === undefined) {
    if (cache.size >= MOST_STATEMENTS) cache.delete(cache.keys().next().value!);
    value = make();
    cache.set(sql, value);
  }
  return value;
}

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
      return cached(statements, sql, () => connection.prepare(sql).raw(true)).all(params) as unknown[][];
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
      // Never a name used before: a connection may still hold it prepared with other text.
      const name = cached(names, sql, () => `lectura_${++named}`);
      const result = await pool.query({ name, text: sql, values: params, rowMode: "array", types: TYPES });
      return result.rows as unknown[][];
    },
    close: () => undefined,
  };
}
