import { defineConfig } from "prisma/config";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";

// Keep the CLI from looking for native engines: everything here runs on the JavaScript engine.
process.env.PRISMA_QUERY_ENGINE_LIBRARY ??= "/dev/null";
process.env.PRISMA_SCHEMA_ENGINE_BINARY ??= "/dev/null";

// The CLI is only used for generating clients and diffing datamodels, never against a live
// database; the adapter merely tells it which provider it speaks.
const url = process.env.DATABASE_URL ?? "file:./data/app.db";
const postgres = /^postgres(ql)?:\/\//.test(url);

export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  // The CLI exits once the pool's connections close, which pg does after they sit idle for
  // idleTimeoutMillis (10 s by default: https://node-postgres.com/apis/pool).
  adapter: async () => (postgres ? new PrismaPg({ connectionString: url, idleTimeoutMillis: 1 }) : new PrismaBetterSQLite3({ url })),
  schema: postgres ? "prisma/schema.postgresql.prisma" : "prisma/schema.prisma",
});
