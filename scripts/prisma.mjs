#!/usr/bin/env node
// Prisma chores that must run without a network:
//   node scripts/prisma.mjs generate          derive the PostgreSQL schema and generate both clients
//   node scripts/prisma.mjs migration <name>  write the next migration for each provider
// A migration is the diff between the schema copy kept with the previous migration and the
// schema now. Diffing PostgreSQL datamodels needs a reachable server (MIGRATION_DATABASE_URL).
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync, readFileSync } from "node:fs";
import { join } from "node:path";
import {
  POSTGRES_SCHEMA,
  PROVIDERS,
  SOURCE_SCHEMA,
  derivePostgresSchema,
  listMigrations,
  migrationsDir,
  schemaFor,
} from "./prisma-schema.mjs";

const prismaBin = join("node_modules", "prisma", "build", "index.js");
const cliUrl = {
  sqlite: "file::memory:",
  postgresql: process.env.MIGRATION_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres",
};

function prisma(provider, args) {
  return execFileSync(process.execPath, [prismaBin, ...args], {
    env: { ...process.env, DATABASE_URL: cliUrl[provider], PATH: `${join(process.cwd(), "node_modules", ".bin")}:${process.env.PATH}` },
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  });
}

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
  for (const provider of PROVIDERS) {
    const dir = migrationsDir(provider);
    const done = listMigrations(provider);
    const current = schemaFor(provider);
    const target = provider === "sqlite" ? SOURCE_SCHEMA : POSTGRES_SCHEMA;
    const last = done.at(-1);
    const from = last ? ["--from-schema-datamodel", join(dir, last, "schema.prisma")] : ["--from-empty"];
    const sql = prisma(provider, ["migrate", "diff", ...from, "--to-schema-datamodel", target, "--script"]);
    if (!/^\s*[A-Z]/m.test(sql)) {
      // No SQL change (comments, formatting): the last copy is updated so it stays equal to the schema.
      if (last) writeFileSync(join(dir, last, "schema.prisma"), current);
      console.log(`${provider}: no database change`);
      continue;
    }
    const folder = join(dir, `${String(done.length + 1).padStart(4, "0")}_${name}`);
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, "migration.sql"), sql);
    writeFileSync(join(folder, "schema.prisma"), current);
    console.log(`${provider}: wrote ${folder}`);
  }
}

const [command, arg] = process.argv.slice(2);
if (command === "generate") generate();
else if (command === "migration") migration(arg);
else {
  console.error("usage: node scripts/prisma.mjs generate | migration <name>");
  process.exit(2);
}
