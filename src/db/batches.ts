import type { Db, Tx } from "./client.js";
import type { Provider } from "./url.js";

// SQLite allows 32,766 parameters per statement; PostgreSQL 65,535.
const ROWS_PER_STATEMENT = 5000;

/**
 * A date as each database keeps it: Prisma stores SQLite dates as ISO text with an explicit
 * offset (compared as text), PostgreSQL's timestamp(3) in UTC without a zone.
 */
export const instant = (provider: Provider, date: Date) =>
  provider === "sqlite" ? date.toISOString().replace("Z", "+00:00") : date.toISOString();

/** `(?, ?), (?, ?)` on SQLite, `($1::int, $2::float8), …` on PostgreSQL, which needs the types. */
export function valuesList(provider: Provider, rows: unknown[][], pgTypes: string[]): { sql: string; values: unknown[] } {
  let n = 0;
  const tuple = () => `(${pgTypes.map((type) => (provider === "sqlite" ? "?" : `$${++n}::${type}`)).join(", ")})`;
  return { sql: rows.map(tuple).join(", "), values: rows.flat() };
}

function* chunks<T>(items: T[]): Generator<T[]> {
  for (let i = 0; i < items.length; i += ROWS_PER_STATEMENT) yield items.slice(i, i + ROWS_PER_STATEMENT);
}

/**
 * Stores drivers' latest positions in one statement, sent as one JSON parameter (thousands of
 * separate parameters cost more to pass than the update itself). A position older than the one
 * stored (written meanwhile by a change of availability) is left alone.
 */
export async function writePositions(
  db: Db,
  provider: Provider,
  positions: Array<{ conductor_id: number; latitud: number; longitud: number; at: Date }>,
): Promise<void> {
  if (positions.length === 0) return;
  const rows = JSON.stringify(positions.map((p) => ({ c: p.conductor_id, la: p.latitud, lo: p.longitud, en: instant(provider, p.at) })));
  const source =
    provider === "sqlite"
      ? `(SELECT value ->> 'c' AS c, value ->> 'la' AS la, value ->> 'lo' AS lo, value ->> 'en' AS en FROM json_each(?)) AS v`
      : `json_to_recordset($1::json) AS v(c int, la float8, lo float8, en timestamp(3))`;
  await db.$executeRawUnsafe(
    `UPDATE estados_conductor SET latitud = v.la, longitud = v.lo, posicion_en = v.en, actualizado_en = v.en
     FROM ${source}
     WHERE estados_conductor.conductor_id = v.c AND (estados_conductor.posicion_en IS NULL OR estados_conductor.posicion_en < v.en)`,
    rows,
  );
}

/** Records that trips were shown to drivers, in one statement; showing one again changes nothing. */
export async function insertOffers(
  db: Db | Tx,
  provider: Provider,
  offers: Array<{ viaje_id: number; conductor_id: number }>,
  now: Date,
): Promise<void> {
  for (const chunk of chunks(offers)) {
    const rows = chunk.map((o) => [o.viaje_id, o.conductor_id, instant(provider, now)]);
    const { sql, values } = valuesList(provider, rows, ["int", "int", "timestamp(3)"]);
    await db.$executeRawUnsafe(
      `INSERT INTO ofertas_viaje (viaje_id, conductor_id, mostrada_en) VALUES ${sql} ON CONFLICT (viaje_id, conductor_id) DO NOTHING`,
      ...values,
    );
  }
}
