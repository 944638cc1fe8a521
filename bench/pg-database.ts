import { randomUUID } from "node:crypto";
import pg from "pg";

/** The local PostgreSQL server the benches make their databases on. */
const PG_ADMIN_URL = process.env.BENCH_PG_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";

/** A database of its own on the local PostgreSQL server, named from `prefix`, dropped after `use`. */
export async function withPgDatabase<T>(prefix: string, use: (url: string) => Promise<T>): Promise<T> {
  const name = `${prefix}_${randomUUID().slice(0, 8)}`;
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
    const url = new URL(PG_ADMIN_URL);
    url.pathname = `/${name}`;
    return await use(url.toString());
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => undefined);
    await admin.end();
  }
}
