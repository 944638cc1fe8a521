import { readFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import {
  PROVIDERS,
  POSTGRES_SCHEMA,
  derivePostgresSchema,
  listMigrations,
  migrationsDir,
  schemaFor,
} from "../../scripts/prisma-schema.mjs";
import { applyMigrations, migrationsFor } from "../../src/db/migrate.js";
import { createTestDatabase, testProvider, type TestDatabase } from "../support/database.js";

describe("the schema and its migrations", () => {
  it.each(PROVIDERS)("the newest %s migration leads to the current schema", (provider) => {
    const migrations = listMigrations(provider);
    expect(migrations.length).toBeGreaterThan(0);
    const newest = readFileSync(join(migrationsDir(provider), migrations.at(-1)!, "schema.prisma"), "utf8");
    expect(newest, "schema.prisma changed without a migration: run npm run db:migration -- <name>").toBe(schemaFor(provider));
  });

  it("the generated PostgreSQL schema is derived from the current source", () => {
    const source = readFileSync("prisma/schema.prisma", "utf8");
    expect(readFileSync(POSTGRES_SCHEMA, "utf8"), "run npm run postinstall").toBe(derivePostgresSchema(source));
  });

  it("derives PostgreSQL by changing only the provider, the client output and the Pothos generator", () => {
    const derived = derivePostgresSchema(readFileSync("prisma/schema.prisma", "utf8"));
    expect(derived).toContain('provider = "postgresql"');
    expect(derived).toContain("../src/generated/postgresql");
    expect(derived).not.toContain("prisma-pothos-types");
    expect(derived).not.toContain('provider = "sqlite"');
  });

  it("both providers have the same migrations, in the same order", () => {
    expect(listMigrations("postgresql")).toEqual(listMigrations("sqlite"));
  });
});

describe("the migration runner", () => {
  let database: TestDatabase;
  afterEach(() => database?.drop());

  const tableNames = async (url: string): Promise<string[]> => {
    if (testProvider === "sqlite") {
      const db = new Database(url.replace(/^file:/, ""));
      const rows = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as Array<{ name: string }>;
      db.close();
      return rows.map((r) => r.name);
    }
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const { rows } = await client.query("SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public'");
    await client.end();
    return rows.map((r) => r.name);
  };

  it("applies every migration once, however often it runs", async () => {
    database = await createTestDatabase();
    const all = migrationsFor(testProvider).map((m) => m.name);
    expect(await applyMigrations(database.url)).toEqual(all);
    expect(await applyMigrations(database.url)).toEqual([]);
    expect(await tableNames(database.url)).toEqual(expect.arrayContaining(["usuarios", "viajes", "_migraciones"]));
  });

  it("migrates once when several processes start together", async () => {
    database = await createTestDatabase();
    const runs = await Promise.all([1, 2, 3].map(() => applyMigrations(database.url)));
    expect(runs.flat()).toEqual(migrationsFor(testProvider).map((m) => m.name));
  });

  it("refuses a database whose applied migration was edited afterwards", async () => {
    database = await createTestDatabase();
    await applyMigrations(database.url);
    const tamper = "UPDATE _migraciones SET suma = 'otra'";
    if (testProvider === "sqlite") {
      const db = new Database(database.url.replace(/^file:/, ""));
      db.exec(tamper);
      db.close();
    } else {
      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      await client.query(tamper);
      await client.end();
    }
    await expect(applyMigrations(database.url)).rejects.toThrow(/changed after it was applied/);
  });
});
