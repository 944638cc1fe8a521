import Database from "better-sqlite3";
import pg from "pg";
import { databaseProvider, sqliteFile } from "../../src/db/url.js";

/**
 * What a database's tables are made of: one line per column, index and constraint, keyed by what
 * it is ("column usuarios.email"), whatever order the columns came in and without the migration
 * runner's own table (src/db/migrate.ts).
 */
export type Catalog = Map<string, string>;

const RUNNER_TABLE = "_migraciones";

export async function describeDatabase(url: string): Promise<Catalog> {
  return databaseProvider(url) === "sqlite" ? describeSqlite(sqliteFile(url)) : describePostgres(url);
}

/**
 * What differs between a database built from the schema and one built by the migrations, one line
 * each, leaving out what the migrations write by hand because the schema cannot declare it.
 */
export function catalogDifferences(schema: Catalog, migrated: Catalog, writtenByHand: readonly string[]): string[] {
  const keys = [...new Set([...schema.keys(), ...migrated.keys()])].filter((key) => !writtenByHand.includes(key)).sort();
  return keys.flatMap((key) => {
    const wanted = schema.get(key);
    const built = migrated.get(key);
    if (wanted === built) return [];
    if (built === undefined) return [`${key}: the migrations leave it out; the schema has ${wanted}`];
    if (wanted === undefined) return [`${key}: not in the schema; the migrations make ${built}`];
    return [`${key}: the schema has ${wanted}; the migrations make ${built}`];
  });
}

interface SqliteColumn {
  name: string;
  type: string;
  notnull: number;
  dflt_value: string | null;
  pk: number;
  hidden: number;
}

interface SqliteIndex {
  name: string;
  unique: number;
  origin: "c" | "u" | "pk";
  partial: number;
}

interface SqliteIndexColumn {
  name: string | null;
  desc: number;
  coll: string;
}

interface SqliteForeignKey {
  id: number;
  table: string;
  from: string;
  to: string | null;
  on_update: string;
  on_delete: string;
}

function describeSqlite(file: string): Catalog {
  const db = new Database(file, { readonly: true });
  try {
    const catalog: Catalog = new Map();
    const tables = db
      .prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite%' AND name <> ?")
      .pluck()
      .all(RUNNER_TABLE) as string[];
    for (const table of tables) {
      for (const column of db.prepare("SELECT * FROM pragma_table_xinfo(?)").all(table) as SqliteColumn[]) {
        const parts = [column.type, column.notnull ? "NOT NULL" : "NULL"];
        if (column.dflt_value !== null) parts.push(`DEFAULT ${column.dflt_value}`);
        if (column.pk) parts.push(`PRIMARY KEY ${column.pk}`);
        if (column.hidden) parts.push(`HIDDEN ${column.hidden}`);
        catalog.set(`column ${table}.${column.name}`, parts.join(" "));
      }
      for (const index of db.prepare("SELECT * FROM pragma_index_list(?)").all(table) as SqliteIndex[]) {
        const columns = (
          db.prepare("SELECT * FROM pragma_index_xinfo(?) WHERE key = 1 ORDER BY seqno").all(index.name) as SqliteIndexColumn[]
        )
          .map((c) => `${c.name ?? "<expression>"}${c.coll === "BINARY" ? "" : ` COLLATE ${c.coll}`}${c.desc ? " DESC" : ""}`)
          .join(", ");
        const sql = index.partial ? (db.prepare("SELECT sql FROM sqlite_schema WHERE name = ?").pluck().get(index.name) as string) : "";
        const where = index.partial ? ` ${sql.slice(sql.search(/\bWHERE\b/i))}` : "";
        // SQLite names the index of a PRIMARY KEY or UNIQUE clause by its place in the table: it is
        // known by its columns instead.
        const key =
          index.origin === "c"
            ? `index ${index.name}`
            : `index of ${table}'s ${index.origin === "pk" ? "primary key" : "unique"} (${columns})`;
        catalog.set(key, `${index.unique ? "UNIQUE " : ""}ON ${table} (${columns})${where}`);
      }
      const keys = new Map<number, SqliteForeignKey[]>();
      for (const fk of db.prepare("SELECT * FROM pragma_foreign_key_list(?)").all(table) as SqliteForeignKey[]) {
        keys.set(fk.id, [...(keys.get(fk.id) ?? []), fk]);
      }
      for (const columns of keys.values()) {
        const [first] = columns as [SqliteForeignKey];
        catalog.set(
          `foreign key ${table} (${columns.map((c) => c.from).join(", ")})`,
          `REFERENCES ${first.table} (${columns.map((c) => c.to ?? "<primary key>").join(", ")}) ON UPDATE ${first.on_update} ON DELETE ${first.on_delete}`,
        );
      }
    }
    return catalog;
  } finally {
    db.close();
  }
}

async function describePostgres(url: string): Promise<Catalog> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const catalog: Catalog = new Map();
    const columns = await client.query<{ table: string; column: string; type: string; not_null: boolean; default: string | null }>(
      `SELECT c.relname AS table, a.attname AS column, format_type(a.atttypid, a.atttypmod) AS type, a.attnotnull AS not_null,
              pg_get_expr(d.adbin, d.adrelid) AS default
       FROM pg_attribute a
       JOIN pg_class c ON c.oid = a.attrelid
       LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
       WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind = 'r' AND c.relname <> $1
         AND a.attnum > 0 AND NOT a.attisdropped`,
      [RUNNER_TABLE],
    );
    for (const column of columns.rows) {
      const parts = [column.type, column.not_null ? "NOT NULL" : "NULL"];
      if (column.default !== null) parts.push(`DEFAULT ${column.default}`);
      catalog.set(`column ${column.table}.${column.column}`, parts.join(" "));
    }
    const indexes = await client.query<{ name: string; definition: string }>(
      "SELECT indexname AS name, indexdef AS definition FROM pg_indexes WHERE schemaname = current_schema() AND tablename <> $1",
      [RUNNER_TABLE],
    );
    for (const index of indexes.rows) catalog.set(`index ${index.name}`, index.definition);
    const constraints = await client.query<{ table: string; name: string; definition: string }>(
      `SELECT c.relname AS table, k.conname AS name, pg_get_constraintdef(k.oid) AS definition
       FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid
       WHERE c.relnamespace = current_schema()::regnamespace AND c.relname <> $1`,
      [RUNNER_TABLE],
    );
    for (const constraint of constraints.rows) catalog.set(`constraint ${constraint.table}.${constraint.name}`, constraint.definition);
    return catalog;
  } finally {
    await client.end();
  }
}
