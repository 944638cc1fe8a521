#!/usr/bin/env node
// Prisma chores that must run without a network:
//   node scripts/prisma.mjs generate          derive the PostgreSQL schema and generate both clients
//   node scripts/prisma.mjs migration <name>  write the next migration for each provider
// A migration is the diff between the schema as it was at the previous migration (SNAPSHOT) and the
// schema now. Diffing PostgreSQL datamodels needs a reachable server (MIGRATION_DATABASE_URL).
import { existsSync, mkdirSync, writeFileSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { migrationSql, prisma } from "./prisma-cli.mjs";
import {
  POSTGRES_SCHEMA,
  PROVIDERS,
  SNAPSHOT,
  SOURCE_SCHEMA,
  derivePostgresSchema,
  listMigrations,
  migrationsDir,
  schemaFor,
} from "./prisma-schema.mjs";

function writeDerived() {
  writeFileSync(POSTGRES_SCHEMA, derivePostgresSchema(readFileSync(SOURCE_SCHEMA, "utf8")));
}

function generate() {
  writeDerived();
  prisma("sqlite", ["generate", "--schema", SOURCE_SCHEMA]);
  prisma("postgresql", ["generate", "--schema", POSTGRES_SCHEMA]);
}

function migration(name) {
  if (!/^[a-z0-9_]+$/.test(name ?? "")) throw new Error("usage: node scripts/prisma.mjs migration <name in snake_case>");
  writeDerived();
  const snapshot = existsSync(SNAPSHOT) ? readFileSync(SNAPSHOT, "utf8") : undefined;
  // Both diffs first, so that a provider that fails leaves no half-written migration behind.
  const scripts = PROVIDERS.map((provider) => {
    const from = snapshot === undefined ? undefined : schemaFor(provider, snapshot);
    return { provider, sql: migrationSql(provider, from, schemaFor(provider)) };
  });
  for (const { provider, sql } of scripts) {
    if (!/^\s*[A-Z]/m.test(sql)) {
      console.log(`${provider}: no database change`);
      continue;
    }
    const folder = join(migrationsDir(provider), `${String(listMigrations(provider).length + 1).padStart(4, "0")}_${name}`);
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, "migration.sql"), sql);
    console.log(`${provider}: wrote ${folder}`);
  }
  // Also without SQL changes (comments, formatting), so that it stays equal to the schema.
  writeFileSync(SNAPSHOT, readFileSync(SOURCE_SCHEMA, "utf8"));
}

const [command, arg] = process.argv.slice(2);
if (command === "generate") generate();
else if (command === "migration") migration(arg);
else {
  console.error("usage: node scripts/prisma.mjs generate | migration <name>");
  process.exit(2);
}
