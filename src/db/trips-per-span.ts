import { type Db, Prisma } from "./client.js";

/** The money columns of a trip, in whole pesos, set when it completes. */
export const TRIP_MONEY = [
  "precio_final",
  "comision_plataforma",
  "comision_metodo_pago",
  "comision_empresa",
  "ganancia_conductor",
] as const;
export type TripMoney = Record<(typeof TRIP_MONEY)[number], number>;

export interface SpanCount {
  cantidad: number;
  /** How many are in each state now. */
  estados: Map<string, number>;
  /** The trips' money, when it was asked for (zeros otherwise). */
  dinero: TripMoney;
}

interface Question {
  empresaId: number;
  /** Only the trips in this state; any state without it. */
  estado?: string;
  /** The date that places a trip in a span. */
  by: "fecha_solicitud" | "fecha_fin";
  /** The spans' starts in order, each span ending where the next starts, then the last one's end. */
  bounds: Date[];
  /** Sum the trips' money too: it reads every row, where a count alone may read only an index. */
  money: boolean;
}

/** The money columns' sums, as a select list's continuation. */
const MONEY_SUMS = Prisma.raw(TRIP_MONEY.map((name) => `, SUM(${name}) AS ${name}`).join(""));

/** No money: what a span without completed trips holds, and where sums start. */
export const noMoney = (): TripMoney => ({
  precio_final: 0,
  comision_plataforma: 0,
  comision_metodo_pago: 0,
  comision_empresa: 0,
  ganancia_conductor: 0,
});

/**
 * Which of the spans ending at `ends` (the last one open-ended) a date falls in, numbered from
 * `first`: halving the spans at each step, a row takes a few comparisons however many there are.
 */
function spanOf(column: Prisma.Sql, ends: Array<Date | string>, first: number): Prisma.Sql {
  if (ends.length === 0) return Prisma.raw(String(first));
  const middle = Math.floor(ends.length / 2);
  const before = spanOf(column, ends.slice(0, middle), first);
  const after = spanOf(column, ends.slice(middle + 1), first + middle + 1);
  return Prisma.sql`CASE WHEN ${column} < ${ends[middle]} THEN ${before} ELSE ${after} END`;
}

/**
 * A company's trips counted by state in each of consecutive spans (the points of a chart), by the
 * database in one statement whatever the number of spans: each row's span is found by comparing
 * its date with the spans' ends, as the database compares dates.
 */
export async function companyTripsPerSpan(db: Db, question: Question): Promise<SpanCount[]> {
  const { empresaId, estado, by, bounds, money } = question;
  const spans = bounds.length - 1;
  const column = Prisma.raw(by);
  const span = spanOf(column, bounds.slice(1, -1), 0);
  const sums = money ? MONEY_SUMS : Prisma.empty;
  const rows = await db.$queryRaw<Array<Record<string, bigint | number | string | null>>>`
    SELECT ${span} AS tramo, estado, COUNT(*) AS cantidad ${sums}
    FROM viajes
    WHERE empresa_id = ${empresaId} ${estado ? Prisma.sql`AND estado = ${estado}` : Prisma.empty}
      AND ${column} >= ${bounds[0]} AND ${column} < ${bounds[spans]}
    GROUP BY 1, estado`;
  return countsOf(rows, spans, money);
}

/** Rows of (span, state, count[, money]) folded into each span's count. */
function countsOf(rows: Array<Record<string, bigint | number | string | null>>, spans: number, money: boolean): SpanCount[] {
  const counts = Array.from({ length: spans }, (): SpanCount => ({ cantidad: 0, estados: new Map(), dinero: noMoney() }));
  for (const row of rows) {
    const count = counts[Number(row.tramo)]!;
    count.cantidad += Number(row.cantidad);
    count.estados.set(String(row.estado), Number(row.cantidad));
    if (money) for (const name of TRIP_MONEY) count.dinero[name] += Number(row[name] ?? 0);
  }
  return counts;
}

/** What a company's days hold: its trips by the day they were requested, or its completed trips' money by the day they completed. */
interface DaysQuestion {
  empresaId: number;
  of: "requested" | "completed";
  /** The spans' first days in order (AAAA-MM-DD, Bogotá), each span ending where the next starts, then the day after the last one. */
  days: string[];
}

/**
 * The same counts as companyTripsPerSpan for spans made of whole Bogotá days, added up from the
 * company's daily totals (viajes_empresa_dia, ingresos_empresa_dia): a row per day and state,
 * however many trips the days hold.
 */
export async function companyDaysPerSpan(db: Db, question: DaysQuestion): Promise<SpanCount[]> {
  const { empresaId, of, days } = question;
  const spans = days.length - 1;
  const span = spanOf(Prisma.raw("dia"), days.slice(1, -1), 0);
  const rows =
    of === "requested"
      ? await db.$queryRaw<Array<Record<string, bigint | number | string | null>>>`
          SELECT ${span} AS tramo, estado, SUM(cantidad) AS cantidad FROM viajes_empresa_dia
          WHERE empresa_id = ${empresaId} AND dia >= ${days[0]} AND dia < ${days[spans]}
          GROUP BY 1, estado`
      : await db.$queryRaw<Array<Record<string, bigint | number | string | null>>>`
          SELECT ${span} AS tramo, 'completado' AS estado, SUM(viajes) AS cantidad
            ${MONEY_SUMS}
          FROM ingresos_empresa_dia
          WHERE empresa_id = ${empresaId} AND dia >= ${days[0]} AND dia < ${days[spans]}
          GROUP BY 1`;
  return countsOf(rows, spans, of === "completed");
}
