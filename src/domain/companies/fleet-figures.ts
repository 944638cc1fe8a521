import type { Db, Prisma } from "../../db/client.js";
import { companyDaysPerSpan, companyTripsPerSpan, noMoney, type SpanCount, TRIP_MONEY, type TripMoney } from "../../db/trips-per-span.js";
import type { Actor } from "../actor.js";
import { type Bucket, figureSpans, lastInstant, type rangeSchema } from "../figure-spans.js";
import type { Deps } from "../deps.js";
import { localDate, nextDay, type Span, startOfDay, within } from "../time.js";
import { total } from "../trips/counts.js";
import { TRIP_STATES } from "../trip-states.js";
import type { Raw } from "../validation.js";
import { companyInScope } from "../company-scope.js";

/**
 * Where a company's fares went: the commissions charged (the platform's and the payment method's),
 * the company's share of them, what the platform kept, and the drivers' net. What the platform
 * kept, the company's share and the drivers' net add up to the gross fares, trip by trip.
 */
const split = (viajes_completados: number, money: TripMoney) => {
  const comision = money.comision_plataforma + money.comision_metodo_pago;
  return {
    viajes_completados,
    bruto: money.precio_final,
    comision,
    comision_empresa: money.comision_empresa,
    neto_plataforma: comision - money.comision_empresa,
    neto: money.ganancia_conductor,
  };
};

/** The money of the completed trips `scope` picks, counted on the day they completed, in a span or ever. */
export async function incomeOf(db: Db, scope: Prisma.TripWhereInput, span: Span | null) {
  const { _count, _sum } = await db.trip.aggregate({
    where: { ...scope, estado: "completado", ...(span ? { fecha_fin: within(span) } : {}) },
    _count: { _all: true },
    _sum: Object.fromEntries(TRIP_MONEY.map((name) => [name, true])) as Record<keyof TripMoney, true>,
  });
  return split(_count._all, Object.fromEntries(TRIP_MONEY.map((name) => [name, _sum[name] ?? 0])) as TripMoney);
}

interface Tally {
  /** The trips requested in a span, by the state they are in now. */
  requested: SpanCount;
  /** The trips completed in a span, with their money. */
  completed: SpanCount;
}

/** Where a range without a start starts: before any trip, at a Bogotá midnight. */
const BEGINNING = startOfDay(new Date(0));

const isMidnight = (instant: Date) => startOfDay(instant).getTime() === instant.getTime();

/**
 * The company's tallies of consecutive spans (`bounds`: their starts, then the last end): two
 * statements for all of them. Spans of whole days add up the company's daily totals; others (a
 * chart's hours, the hours at either end of a range) count its trips, a day's worth at most.
 */
async function talliesOf(db: Db, empresaId: number, bounds: Date[]): Promise<Tally[]> {
  const days = bounds.every(isMidnight) ? bounds.map(localDate) : null;
  const [requested, completed] = await Promise.all(
    days
      ? [companyDaysPerSpan(db, { empresaId, of: "requested", days }), companyDaysPerSpan(db, { empresaId, of: "completed", days })]
      : [
          companyTripsPerSpan(db, { empresaId, by: "fecha_solicitud", bounds, money: false }),
          companyTripsPerSpan(db, { empresaId, estado: "completado", by: "fecha_fin", bounds, money: true }),
        ],
  );
  return requested.map((count, i) => ({ requested: count, completed: completed[i]! }));
}

/** The tallies that make up one span: its whole days from the daily totals, and the hours before and after them from the trips. */
async function spanTallies(db: Db, empresaId: number, { start = BEGINNING, end }: Span): Promise<Tally[]> {
  const from = isMidnight(start) ? start : nextDay(start);
  const to = startOfDay(end);
  if (from >= to) return talliesOf(db, empresaId, [start, end]);
  const parts: Date[][] = [
    [start, from],
    [from, to],
    [to, end],
  ].filter(([first, last]) => first! < last!);
  return (await Promise.all(parts.map((bounds) => talliesOf(db, empresaId, bounds)))).flat();
}

/** A period's figures from the tallies of the spans it is made of. */
function periodOf(span: Span, tallies: Tally[]) {
  const states = new Map<string, number>();
  const money = noMoney();
  let completados = 0;
  for (const { requested, completed } of tallies) {
    for (const [estado, cantidad] of requested.estados) states.set(estado, (states.get(estado) ?? 0) + cantidad);
    completados += completed.cantidad;
    for (const name of TRIP_MONEY) money[name] += completed.dinero[name];
  }
  const viajes_por_estado = TRIP_STATES.map((estado) => ({ estado, cantidad: states.get(estado) ?? 0 }));
  return {
    desde: span.start ?? null,
    hasta: lastInstant(span),
    viajes: total(viajes_por_estado),
    viajes_por_estado,
    ingresos: split(completados, money),
  };
}

/** A chart point: the trips requested in it and how many of those were cancelled, and the trips completed in it with their money. */
function pointOf(bucket: Bucket, { requested, completed }: Tally) {
  const { viajes_completados, ...money } = split(completed.cantidad, completed.dinero);
  const cancelados = requested.estados.get("cancelado") ?? 0;
  return { inicio: bucket.start, viajes: requested.cantidad, completados: viajes_completados, cancelados, ...money };
}

/**
 * The tallies of the chart's buckets that make up `span` exactly, or null when they do not. What
 * is after now has not happened yet: a span running past the chart's end, itself after now, may
 * end with the chart (this month ends with today's chart).
 */
function charted(span: Span, buckets: Bucket[], tallies: Tally[], now: Date): Tally[] | null {
  const first = buckets.findIndex((bucket) => bucket.start.getTime() === span.start?.getTime());
  const chartEnd = buckets.at(-1)!.end;
  const last =
    span.end > chartEnd && chartEnd > now ? buckets.length - 1 : buckets.findIndex((bucket) => bucket.end.getTime() === span.end.getTime());
  return first !== -1 && last >= first ? tallies.slice(first, last + 1) : null;
}

/**
 * A company's figures, for its managers and administrators naming it: its trips by state (on the
 * day they were requested) and their money (on the day they completed) today, this month (Bogotá
 * calendar) and in the range asked for, and a series for charts as platformStats has it, its
 * cancellations counted where their trip was requested (a cancellation's own date has no index to
 * find it by). A trip is the company's when its driver belonged to it on accepting it. The chart
 * is read first, in two statements; a period its buckets make up is their sum, the others are read.
 */
export async function companyFigures(deps: Deps, actor: Actor, input: Raw<typeof rangeSchema> & { empresa_id?: number | null }) {
  const company = await companyInScope(deps, actor, input.empresa_id);
  const now = deps.clock.now();
  const { today, month, range, intervalo, buckets } = figureSpans(now, input);
  const points = await talliesOf(deps.db, company.id, [...buckets.map((bucket) => bucket.start), buckets.at(-1)!.end]);
  const period = async (span: Span) =>
    periodOf(span, charted(span, buckets, points, now) ?? (await spanTallies(deps.db, company.id, span)));
  const [hoy, mes, periodo] = await Promise.all([period(today), period(month), range && period(range)]);
  return {
    empresa: company,
    generado_en: now,
    hoy,
    mes,
    periodo,
    serie: { intervalo, puntos: buckets.map((bucket, i) => pointOf(bucket, points[i]!)) },
  };
}

export type CompanyFigures = Awaited<ReturnType<typeof companyFigures>>;
