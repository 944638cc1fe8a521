import { z } from "zod";
import type { Actor } from "../actor.js";
import type { Deps } from "../deps.js";
import { ValidationError } from "../errors.js";
import { round } from "../numbers.js";
import { localDate, nextDay, nextMonth, nextWeek, startOfDay, startOfMonth, startOfWeek } from "../time.js";
import { isoDate, oneOf, fieldParser, parseInput } from "../validation.js";
import { subjectDriver } from "./access.js";
import { loadDriver } from "./readiness.js";

export const PERIODS = ["hoy", "semana", "mes", "total"] as const;
/** The period of earnings asked for by its days (desde, hasta) rather than by name. */
export const CUSTOM_PERIOD = "personalizado";
const parsePeriod = fieldParser("periodo", oneOf(PERIODS));
export type Period = (typeof PERIODS)[number];

/** A calendar period in Bogotá containing `now`: [start, end). The week starts on Monday. */
export function periodRange(period: Exclude<Period, "total">, now: Date): { start: Date; end: Date } {
  if (period === "hoy") return { start: startOfDay(now), end: nextDay(startOfDay(now)) };
  if (period === "semana") return { start: startOfWeek(now), end: nextWeek(startOfWeek(now)) };
  return { start: startOfMonth(now), end: nextMonth(startOfMonth(now)) };
}

const rangeSchema = z.object({ desde: isoDate(), hasta: isoDate({ endOfDay: true }) });

/** The period asked for: a named one, or the days from `desde` to `hasta` (both included) when no name is given. */
function chosenPeriod(input: EarningsQuery, now: Date, signedUp: Date): { periodo: Period | typeof CUSTOM_PERIOD; start: Date; end: Date } {
  if (input.periodo != null || (input.desde == null && input.hasta == null)) {
    const periodo = parsePeriod(input.periodo);
    // "total" is everything up to now, shown as starting when the driver signed up.
    if (periodo === "total") return { periodo, start: signedUp, end: new Date(now.getTime() + 1) };
    return { periodo, ...periodRange(periodo, now) };
  }
  const { desde, hasta } = parseInput(rangeSchema, input);
  if (desde > hasta) throw new ValidationError("debe ser posterior o igual a 'desde'", "hasta");
  return { periodo: CUSTOM_PERIOD, start: desde, end: new Date(hasta.getTime() + 1) };
}

export interface EarningsQuery {
  periodo?: unknown;
  desde?: unknown;
  hasta?: unknown;
}

/**
 * What a driver earned in a period, net of the platform commission (kept per trip when it
 * completes, so a later change of rate does not rewrite history).
 */
export async function earnings(deps: Deps, actor: Actor, conductor: number | null | undefined, query: EarningsQuery) {
  const conductorId = subjectDriver(actor, conductor);
  const driver = await loadDriver(deps.db, conductorId);
  const { periodo, start, end } = chosenPeriod(query, deps.clock.now(), driver.conductor.creado_en);
  const completed = await deps.db.trip.findMany({
    where: { conductor_id: conductorId, estado: "completado", fecha_fin: { ...(periodo === "total" ? {} : { gte: start }), lt: end } },
    select: { fecha_fin: true, ganancia_conductor: true },
    orderBy: { fecha_fin: "asc" },
  });
  const total = completed.reduce((sum, trip) => sum + (trip.ganancia_conductor ?? 0), 0);
  const trips = completed.length;
  return {
    periodo,
    total_viajes: trips,
    ganancia_total: round(total),
    ganancia_promedio: trips === 0 ? 0 : round(total / trips),
    fecha_inicio: start,
    fecha_fin: new Date(end.getTime() - 1),
    desglose_diario: byDay(completed),
  };
}

/** Earnings and trips of each Bogotá day that had any, in order: what the earnings screen charts. */
function byDay(trips: Array<{ fecha_fin: Date | null; ganancia_conductor: number | null }>) {
  const days = new Map<string, { fecha: string; ganancias: number; viajes: number }>();
  for (const trip of trips) {
    const fecha = localDate(trip.fecha_fin!);
    const entry = days.get(fecha) ?? { fecha, ganancias: 0, viajes: 0 };
    entry.ganancias += trip.ganancia_conductor ?? 0;
    entry.viajes += 1;
    days.set(fecha, entry);
  }
  return [...days.values()];
}
