import Sqlite from "better-sqlite3";
import pg from "pg";

/** PostgreSQL binds at most 65,535 values a statement. */
const PG_VALUES = 60_000;

/**
 * Writes rows through the database's own driver, not the ORM, which takes minutes over the
 * hundreds of thousands of rows a bench seeds. Values are stored as Prisma stores them: dates as
 * UTC (SQLite: ISO text with +00:00), booleans as SQLite's 0 and 1. Every row has the first's columns.
 */
export async function bulkInsert(url: string, table: string, rows: Array<Record<string, unknown>>): Promise<void> {
  if (rows.length === 0) return;
  const columns = Object.keys(rows[0]!);
  const list = columns.join(", ");
  if (url.startsWith("file:")) {
    const db = new Sqlite(url.slice("file:".length));
    const sqliteValue = (value: unknown) =>
      value instanceof Date ? value.toISOString().replace("Z", "+00:00") : typeof value === "boolean" ? Number(value) : value;
    try {
      const statement = db.prepare(`INSERT INTO ${table} (${list}) VALUES (${columns.map(() => "?").join(", ")})`);
      db.transaction(() => {
        for (const row of rows) statement.run(columns.map((column) => sqliteValue(row[column])));
      })();
    } finally {
      db.close();
    }
    return;
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  // A timestamp without time zone keeps the UTC wall time written, as Prisma's are.
  const pgValue = (value: unknown) => (value instanceof Date ? value.toISOString() : value);
  try {
    const size = Math.floor(PG_VALUES / columns.length);
    for (let i = 0; i < rows.length; i += size) {
      const chunk = rows.slice(i, i + size);
      const values = chunk.map((_, r) => `(${columns.map((_, c) => `$${r * columns.length + c + 1}`).join(", ")})`).join(", ");
      await client.query(
        `INSERT INTO ${table} (${list}) VALUES ${values}`,
        chunk.flatMap((row) => columns.map((column) => pgValue(row[column]))),
      );
    }
  } finally {
    await client.end();
  }
}
