// The Prisma CLI, run offline on the JavaScript engine (prisma.config.ts), for scripts/prisma.mjs
// and the test that checks the migrations' SQL (test/db/migrations.test.ts).
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const prismaBin = join("node_modules", "prisma", "build", "index.js");
// The SQLite adapter needs no file; diffing PostgreSQL datamodels needs a reachable server.
const cliUrl = {
  sqlite: "file::memory:",
  postgresql: process.env.MIGRATION_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres",
};

export function prisma(provider, args) {
  return execFileSync(process.execPath, [prismaBin, ...args], {
    env: { ...process.env, DATABASE_URL: cliUrl[provider], PATH: `${join(process.cwd(), "node_modules", ".bin")}:${process.env.PATH}` },
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  });
}

/**
 * The SQL that takes a database of the provider from one datamodel to another, both given as a
 * schema's text; without `from`, from an empty database.
 */
export function migrationSql(provider, from, to) {
  const dir = mkdtempSync(join(tmpdir(), "prisma-diff-"));
  const file = (name, text) => {
    writeFileSync(join(dir, name), text);
    return join(dir, name);
  };
  try {
    const fromArgs = from === undefined ? ["--from-empty"] : ["--from-schema-datamodel", file("from.prisma", from)];
    return prisma(provider, ["migrate", "diff", ...fromArgs, "--to-schema-datamodel", file("to.prisma", to), "--script"]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
