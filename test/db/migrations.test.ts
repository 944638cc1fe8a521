import { appendFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { migrationSql } from "../../scripts/prisma-cli.mjs";
import {
  POSTGRES_SCHEMA,
  SNAPSHOT,
  SOURCE_SCHEMA,
  derivePostgresSchema,
  listMigrations,
  migrationsDir,
  schemaFor,
} from "../../scripts/prisma-schema.mjs";
import { applyMigrations, migrationsFor } from "../../src/db/migrate.js";
import { type Catalog, catalogDifferences, describeDatabase } from "../support/catalog.js";
import { createTestDatabase, testProvider, type TestDatabase } from "../support/database.js";

describe("the schema and its migrations", () => {
  it("the schema has not changed since the newest migration", () => {
    expect(readFileSync(SNAPSHOT, "utf8"), "schema.prisma changed without a migration: run npm run db:migration -- <name>").toBe(
      readFileSync(SOURCE_SCHEMA, "utf8"),
    );
  });

  it("the generated PostgreSQL schema is derived from the current source", () => {
    const source = readFileSync(SOURCE_SCHEMA, "utf8");
    expect(readFileSync(POSTGRES_SCHEMA, "utf8"), "run npm run postinstall").toBe(derivePostgresSchema(source));
  });

  it("derives PostgreSQL by changing only the provider, the client output and the Pothos generator", () => {
    const derived = derivePostgresSchema(readFileSync(SOURCE_SCHEMA, "utf8"));
    expect(derived).toContain('provider = "postgresql"');
    expect(derived).toContain("../src/generated/postgresql");
    expect(derived).not.toContain("prisma-pothos-types");
    expect(derived).not.toContain('provider = "sqlite"');
  });

  it("both providers have the same migrations, in the same order", () => {
    expect(listMigrations("postgresql")).toEqual(listMigrations("sqlite"));
  });
});

// Partial unique indexes, which schema.prisma cannot declare: the migrations write them by hand
// (see the Payout and SavedPlace models in prisma/schema.prisma).
const WRITTEN_BY_HAND = [
  "index retiros_un_abierto_por_conductor",
  "index retiros_un_abierto_por_empresa",
  "index lugares_favoritos_uno_por_tipo",
];

const FIX =
  "The migrations do not build what prisma/schema.prisma describes. Write a schema change's migration with " +
  "npm run db:migration -- <name>. A migration.sql edited by hand must build the same: restore it, or, if it was " +
  "applied somewhere already, correct it in a new migration; what the schema cannot declare goes in WRITTEN_BY_HAND here";

describe("the migrations' SQL", () => {
  const folders: string[] = [];
  /** An empty folder, removed after the tests, to lay out as prisma/migrations/ is. */
  const migrationsFolder = (): string => {
    const root = mkdtempSync(join(tmpdir(), "rh-migrations-"));
    folders.push(root);
    return root;
  };
  afterAll(() => {
    for (const root of folders) rmSync(root, { recursive: true, force: true });
  });

  /** What the migrations under root (by default the project's) build in an empty database. */
  const built = async (root?: string): Promise<Catalog> => {
    const database = await createTestDatabase();
    try {
      await applyMigrations(database.url, root);
      return await describeDatabase(database.url);
    } finally {
      await database.drop();
    }
  };

  // What the schema makes (the SQL Prisma writes for it from nothing, applied as one migration) and
  // what the project's migrations make.
  let schema: Catalog;
  let migrated: Catalog;
  beforeAll(async () => {
    const root = migrationsFolder();
    mkdirSync(join(root, testProvider, "0001_schema"), { recursive: true });
    writeFileSync(join(root, testProvider, "0001_schema", "migration.sql"), migrationSql(testProvider, undefined, schemaFor(testProvider)));
    [schema, migrated] = await Promise.all([built(root), built()]);
  });

  it(`builds on ${testProvider} what the schema describes`, () => {
    expect(catalogDifferences(schema, migrated, WRITTEN_BY_HAND), FIX).toEqual([]);
  });

  it("adds the partial unique indexes the schema cannot declare", () => {
    expect(WRITTEN_BY_HAND.map((key) => migrated.get(key))).toEqual(WRITTEN_BY_HAND.map(() => expect.stringMatching(/UNIQUE .* WHERE /)));
  });

  it("reports a migration.sql edited by hand: a column dropped, an index renamed", async () => {
    const root = migrationsFolder();
    cpSync(migrationsDir(testProvider), join(root, testProvider), { recursive: true });
    appendFileSync(
      join(root, testProvider, listMigrations(testProvider).at(-1)!, "migration.sql"),
      `ALTER TABLE "usuarios" DROP COLUMN "motivo_suspension";
      DROP INDEX "usuarios_nombre_idx";
      CREATE INDEX "usuarios_nombre_renombrado" ON "usuarios"("nombre");`,
    );
    const differences = catalogDifferences(schema, await built(root), WRITTEN_BY_HAND);
    expect(differences).toEqual([
      expect.stringMatching(/^column usuarios\.motivo_suspension: the migrations leave it out; the schema has \w+ NULL$/),
      expect.stringMatching(/^index usuarios_nombre_idx: the migrations leave it out; the schema has /),
      expect.stringMatching(/^index usuarios_nombre_renombrado: not in the schema; the migrations make /),
    ]);
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

  /** The triggers in a database: SQL cannot declare them in schema.prisma, so the catalog leaves them out. */
  const triggerNames = async (url: string): Promise<string[]> => {
    if (testProvider === "sqlite") {
      const db = new Database(url.replace(/^file:/, ""));
      const rows = db.prepare("SELECT name FROM sqlite_master WHERE type = 'trigger'").all() as Array<{ name: string }>;
      db.close();
      return rows.map((r) => r.name);
    }
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const { rows } = await client.query("SELECT tgname AS name FROM pg_trigger WHERE NOT tgisinternal");
    await client.end();
    return rows.map((r) => r.name);
  };

  it("keeps every trigger the migrations create: a later one that rebuilds a table must not drop them", async () => {
    database = await createTestDatabase();
    await applyMigrations(database.url);
    const written = migrationsFor(testProvider).flatMap(({ sql }) => [...sql.matchAll(/CREATE TRIGGER "(\w+)"/g)].map((match) => match[1]));
    expect(written.length).toBeGreaterThan(0);
    expect((await triggerNames(database.url)).sort()).toEqual([...written].sort());
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

describe("a SQLite migration that rebuilds tables", () => {
  it("keeps the rows that refer to them (no ON DELETE action fires)", async () => {
    const database = await createTestDatabase("sqlite");
    try {
      const file = database.url.replace(/^file:/, "");
      const all = migrationsFor("sqlite");
      // The database as it was before 0013 rebuilt empresas, cuentas_retiro and retiros.
      const before = all.filter((migration) => migration.name < "0013");
      const db = new Database(file);
      db.exec("CREATE TABLE _migraciones (nombre TEXT PRIMARY KEY, suma TEXT NOT NULL, aplicada_en TEXT NOT NULL)");
      for (const migration of before) {
        db.exec(migration.sql);
        db.prepare("INSERT INTO _migraciones VALUES (?, ?, ?)").run(migration.name, migration.checksum, new Date().toISOString());
      }
      db.exec(`
        INSERT INTO empresas (id, nombre, nit, actualizado_en) VALUES (1, 'Flota', '900111222-3', CURRENT_TIMESTAMP);
        INSERT INTO usuarios (id, uuid, nombre, apellido, email, telefono, password_hash, tipo_usuario, empresa_id, actualizado_en)
          VALUES (1, 'u-1', 'Ana', 'Conductora', 'ana@example.com', '3000000000', '!', 'conductor', 1, CURRENT_TIMESTAMP);
        INSERT INTO solicitudes_afiliacion (empresa_id, conductor_id, estado) VALUES (1, 1, 'solicitada');
        INSERT INTO cuentas_retiro (id, conductor_id, tipo) VALUES (1, 1, 'efectivo');
        INSERT INTO retiros (conductor_id, cuenta_retiro_id, monto, solicitado_en) VALUES (1, 1, 20000, CURRENT_TIMESTAMP);
      `);
      db.close();

      expect(await applyMigrations(database.url)).toEqual(all.filter((migration) => migration.name >= "0013").map((m) => m.name));
      const after = new Database(file, { readonly: true });
      expect(after.prepare("SELECT empresa_id FROM usuarios WHERE id = 1").get()).toEqual({ empresa_id: 1 });
      expect(after.prepare("SELECT COUNT(*) AS n FROM solicitudes_afiliacion").get()).toEqual({ n: 1 });
      expect(after.prepare("SELECT conductor_id, monto FROM retiros").all()).toEqual([{ conductor_id: 1, monto: 20000 }]);
      after.close();
      // The rebuilt table keeps one open payout per driver.
      const writer = new Database(file);
      expect(() =>
        writer.exec("INSERT INTO retiros (conductor_id, cuenta_retiro_id, monto, solicitado_en) VALUES (1, 1, 30000, CURRENT_TIMESTAMP)"),
      ).toThrow(/UNIQUE/);
      writer.close();
    } finally {
      await database.drop();
    }
  });
});
