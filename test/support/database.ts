import { randomUUID } from "node:crypto";
import { rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll } from "vitest";
import { openDatabase, type Database } from "../../src/db/client.js";
import { applyMigrations } from "../../src/db/migrate.js";

/** Which database the suite runs on: SQLite unless TEST_DATABASE=postgresql. */
export const testProvider = process.env.TEST_DATABASE === "postgresql" ? "postgresql" : "sqlite";

/** The PostgreSQL server used for test databases (the local one, trust auth). */
export const postgresAdminUrl = process.env.TEST_POSTGRES_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

/** A brand-new empty database of the provider under test. */
export async function createTestDatabase(provider = testProvider): Promise<TestDatabase> {
  const id = randomUUID().replace(/-/g, "").slice(0, 12);
  if (provider === "sqlite") {
    const file = join(tmpdir(), `rh-test-${id}.db`);
    return {
      url: `file:${file}`,
      drop: async () => {
        for (const suffix of ["", "-wal", "-shm"]) rmSync(`${file}${suffix}`, { force: true });
      },
    };
  }
  const name = `rh_test_${id}`;
  await adminQuery(`CREATE DATABASE ${name}`);
  const url = new URL(postgresAdminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}

/** Runs one statement on the test PostgreSQL server's own database. */
export async function adminQuery(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: postgresAdminUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

export interface OpenedTestDatabase {
  /** The database, opened; valid inside the file's tests. */
  db: Database;
  url: string;
}

/**
 * A migrated database of the file's own, opened before its tests and dropped after them: what the
 * returned object holds once they run.
 */
export function migratedDatabase(provider = testProvider): OpenedTestDatabase {
  const opened = {} as OpenedTestDatabase;
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(provider);
    await applyMigrations(database.url);
    opened.url = database.url;
    opened.db = await openDatabase(database.url);
  });
  afterAll(async () => {
    await opened.db?.close();
    await database?.drop();
  });
  return opened;
}
