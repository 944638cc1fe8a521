import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import pg from "pg";
import { SET_UP } from "./locks.js";
import { databaseProvider, sqliteFile, type Provider } from "./url.js";

const MIGRATIONS_ROOT = fileURLToPath(new URL("../../prisma/migrations/", import.meta.url));
const TABLE = "_migraciones";

interface Migration {
  name: string;
  sql: string;
  checksum: string;
}

/** The migrations under `root` (one folder per provider), in the order they apply. */
export function migrationsFor(provider: Provider, root = MIGRATIONS_ROOT): Migration[] {
  const dir = join(root, provider);
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort()
    .map((name) => {
      const sql = readFileSync(join(dir, name, "migration.sql"), "utf8");
      return { name, sql, checksum: createHash("sha256").update(sql).digest("hex") };
    });
}

/** Refuses to run against a database whose applied migrations were edited afterwards. */
function pending(all: Migration[], applied: Map<string, string>): Migration[] {
  for (const migration of all) {
    const checksum = applied.get(migration.name);
    if (checksum && checksum !== migration.checksum) {
      throw new Error(`Migration ${migration.name} changed after it was applied; write a new migration instead`);
    }
  }
  return all.filter((migration) => !applied.has(migration.name));
}

/**
 * Applies the pending migrations in order, each in its own transaction. Returns their names. `root`
 * holds one folder of migrations per provider, as prisma/migrations/ does; the tests name others.
 */
export async function applyMigrations(url: string, root = MIGRATIONS_ROOT): Promise<string[]> {
  const provider = databaseProvider(url);
  const all = migrationsFor(provider, root);
  return provider === "sqlite" ? migrateSqlite(url, all) : migratePostgres(url, all);
}

function migrateSqlite(url: string, all: Migration[]): string[] {
  const db = new Database(sqliteFile(url), { timeout: 10_000 });
  try {
    db.pragma("journal_mode = WAL");
    db.exec(`CREATE TABLE IF NOT EXISTS ${TABLE} (nombre TEXT PRIMARY KEY, suma TEXT NOT NULL, aplicada_en TEXT NOT NULL)`);
    const appliedNow: string[] = [];
    // A migration that rebuilds a table drops the old one, and with foreign keys on, dropping a
    // table first deletes its rows, firing their ON DELETE actions on other tables. SQLite ignores
    // the PRAGMA that turns them off inside a transaction, so they go off around it, and the
    // references are checked before it commits.
    db.pragma("foreign_keys = OFF");
    // IMMEDIATE takes the write lock first, so a second process waits and then sees the work done.
    const run = db.transaction(() => {
      const rows = db.prepare(`SELECT nombre, suma FROM ${TABLE}`).all() as Array<{ nombre: string; suma: string }>;
      for (const migration of pending(all, new Map(rows.map((r) => [r.nombre, r.suma])))) {
        db.exec(migration.sql);
        db.prepare(`INSERT INTO ${TABLE} (nombre, suma, aplicada_en) VALUES (?, ?, ?)`).run(
          migration.name,
          migration.checksum,
          new Date().toISOString(),
        );
        appliedNow.push(migration.name);
      }
      const broken = db.pragma("foreign_key_check") as unknown[];
      if (broken.length > 0) throw new Error(`Migrations left ${broken.length} rows referring to rows that do not exist`);
    });
    run.immediate();
    db.pragma("foreign_keys = ON");
    return appliedNow;
  } finally {
    db.close();
  }
}

async function migratePostgres(url: string, all: Migration[]): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query("SELECT pg_advisory_lock($1)", [SET_UP.migrations]);
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${TABLE} (nombre TEXT PRIMARY KEY, suma TEXT NOT NULL, aplicada_en TIMESTAMPTZ NOT NULL DEFAULT now())`,
    );
    const { rows } = await client.query<{ nombre: string; suma: string }>(`SELECT nombre, suma FROM ${TABLE}`);
    const appliedNow: string[] = [];
    for (const migration of pending(all, new Map(rows.map((r) => [r.nombre, r.suma])))) {
      await client.query("BEGIN");
      try {
        await client.query(migration.sql);
        await client.query(`INSERT INTO ${TABLE} (nombre, suma) VALUES ($1, $2)`, [migration.name, migration.checksum]);
        await client.query("COMMIT");
      } catch (error) {
        await client.query("ROLLBACK");
        throw error;
      }
      appliedNow.push(migration.name);
    }
    return appliedNow;
  } finally {
    await client.query("SELECT pg_advisory_unlock($1)", [SET_UP.migrations]).catch(() => undefined);
    await client.end();
  }
}
