// Pure helpers shared by the Prisma CLI wrapper and the test that keeps migrations in step.
import { readdirSync, existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

export const SOURCE_SCHEMA = "prisma/schema.prisma";
export const POSTGRES_SCHEMA = "prisma/schema.postgresql.prisma";
export const PROVIDERS = ["sqlite", "postgresql"];
/** The source schema as it was when the newest migration was written: what the next one starts from. */
export const SNAPSHOT = "prisma/migrations/schema-at-last-migration.prisma";

export const migrationsDir = (provider) => join("prisma", "migrations", provider);

/**
 * The PostgreSQL schema is the SQLite one with another provider and client output, without the
 * generators whose output does not depend on the provider (Pothos's types, the read model).
 */
export function derivePostgresSchema(source) {
  const withoutPothos = source.replace(/\ngenerator pothos \{[^}]*\}\n/, "\n").replace(/\n\/\/[^\n]*\ngenerator readModel \{[^}]*\}\n/, "");
  const derived = withoutPothos
    .replace(/provider = "sqlite"/, 'provider = "postgresql"')
    .replace('output     = "../src/generated/sqlite"', 'output     = "../src/generated/postgresql"');
  if (derived === withoutPothos) throw new Error("schema.prisma no longer has the expected provider or output lines");
  return `// Derived from ${SOURCE_SCHEMA} by scripts/prisma.mjs. Do not edit.\n${derived}`;
}

/** A provider's form of a source schema, by default the current one. */
export function schemaFor(provider, source = readFileSync(SOURCE_SCHEMA, "utf8")) {
  return provider === "sqlite" ? source : derivePostgresSchema(source);
}

/** Migration folders in the order they apply. */
export function listMigrations(provider, root = ".") {
  const dir = join(root, migrationsDir(provider));
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
}
