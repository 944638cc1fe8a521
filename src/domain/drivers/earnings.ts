import type { Actor } from "../actor.js";
import type { Deps } from "../deps.js";
import { subjectDriver } from "./profile.js";
import { nextDay, nextMonth, nextWeek, startOfDay, startOfMonth, startOfWeek } from "../time.js";
import { oneOf, parseField } from "../validation.js";
import { loadDriver } from "./readiness.js";
import { round } from "../numbers.js";

export const PERIODS = ["hoy", "semana", "mes", "total"] as const;
export type Period = (typeof PERIODS)[number];

/** A calendar period in Bogotá containing `now`: [start, end). The week starts on Monday. */
export function periodRange(period: Exclude<Period, "total">, now: Date): { start: Date; end: Date } {
  if (period === "hoy") return { start: startOfDay(now), end: nextDay(startOfDay(now)) };
  if (period === "semana") return { start: startOfWeek(now), end: nextWeek(startOfWeek(now)) };
  return { start: startOfMonth(now), end: nextMonth(startOfMonth(now)) };
}

/**
 * What a driver earned in a period, net of the platform commission (kept per trip when it
 * completes, so a later change of rate does not rewrite history).
 */
export async function earnings(deps: Deps, actor: Actor, conductor: number | null | undefined, periodo: unknown) {
  const conductorId = subjectDriver(actor, conductor);
  const period = parseField("periodo", oneOf(PERIODS), periodo);
  const driver = await loadDriver(deps.db, conductorId);
  const now = deps.clock.now();
  // "total" is everything up to now, shown as starting when the driver signed up.
  const { start, end } =
    period === "total" ? { start: driver.conductor.creado_en, end: new Date(now.getTime() + 1) } : periodRange(period, now);
  const result = await deps.db.trip.aggregate({
    where: { conductor_id: conductorId, estado: "completado", fecha_fin: { ...(period === "total" ? {} : { gte: start }), lt: end } },
    _sum: { ganancia_conductor: true },
    _count: { _all: true },
  });
  const total = result._sum.ganancia_conductor ?? 0;
  const trips = result._count._all;
  return {
    periodo: period,
    total_viajes: trips,
    ganancia_total: round(total),
    ganancia_promedio: trips === 0 ? 0 : round(total / trips),
    fecha_inicio: start,
    fecha_fin: new Date(end.getTime() - 1),
  };
}
