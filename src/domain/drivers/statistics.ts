import type { Actor } from "../actor.js";
import type { Deps } from "../deps.js";
import { subjectDriver } from "./access.js";
import { loadDriver } from "./readiness.js";
import { periodRange } from "./earnings.js";
import { percent, round } from "../numbers.js";

const HOUR_MS = 3_600_000;

/** How much of [from, to) falls after `since`. */
const spanMs = (from: Date, to: Date, since: Date) => Math.max(0, to.getTime() - Math.max(from.getTime(), since.getTime()));

/**
 * A driver's statistics (spec 2.10), all from records: trips assigned to them, requests shown
 * to them with their answers, and their online periods.
 */
export async function statistics(deps: Deps, actor: Actor, conductor?: number | null) {
  const conductorId = subjectDriver(actor, conductor);
  await loadDriver(deps.db, conductorId);
  const now = deps.clock.now();
  const db = deps.db;
  const completedIn = (range?: { start: Date; end: Date }) =>
    db.trip.count({
      where: { conductor_id: conductorId, estado: "completado", ...(range ? { fecha_fin: { gte: range.start, lt: range.end } } : {}) },
    });

  const day = periodRange("hoy", now);
  const [total, today, week, month, completed, assigned, cancelled, offers, periods, droppedBookings, trips] = await Promise.all([
    completedIn(),
    db.trip.aggregate({
      where: { conductor_id: conductorId, estado: "completado", fecha_fin: { gte: day.start, lt: day.end } },
      _count: { _all: true },
      _sum: { ganancia_conductor: true },
    }),
    completedIn(periodRange("semana", now)),
    completedIn(periodRange("mes", now)),
    db.trip.aggregate({
      where: { conductor_id: conductorId, estado: "completado" },
      _sum: { distancia_km: true },
      _avg: { calificacion_conductor: true },
      _count: { calificacion_conductor: true },
    }),
    db.trip.count({ where: { conductor_id: conductorId } }),
    db.trip.count({ where: { conductor_id: conductorId, estado: "cancelado" } }),
    db.tripOffer.findMany({ where: { conductor_id: conductorId }, select: { respuesta: true, mostrada_en: true, respondida_en: true } }),
    db.onlinePeriod.findMany({ where: { conductor_id: conductorId }, select: { inicio: true, fin: true } }),
    // Reservations taken ahead and dropped late, or missed by not being near the pickup in time: offers not taken.
    db.reservationCommitment.count({ where: { conductor_id: conductorId, fin: { in: ["retirado_tarde", "perdido"] } } }),
    db.trip.findMany({
      where: { conductor_id: conductorId, fecha_aceptacion: { not: null } },
      select: { fecha_aceptacion: true, fecha_fin: true, fecha_cancelacion: true },
    }),
  ]);

  const answered = offers.filter((o) => o.respondida_en);
  const responseSeconds = answered.reduce((sum, o) => sum + (o.respondida_en!.getTime() - o.mostrada_en.getTime()) / 1000, 0);
  // Online, then busy with a trip from acceptance to its end: accepting takes a driver offline, so the two never overlap.
  const activeMs = (since: Date) =>
    periods.reduce((sum, p) => sum + spanMs(p.inicio, p.fin ?? now, since), 0) +
    trips.reduce((sum, t) => sum + spanMs(t.fecha_aceptacion!, t.fecha_fin ?? t.fecha_cancelacion ?? now, since), 0);

  return {
    total_viajes: total,
    viajes_hoy: today._count._all,
    viajes_semana: week,
    viajes_mes: month,
    calificacion_promedio: round(completed._avg.calificacion_conductor ?? 0),
    total_calificaciones: completed._count.calificacion_conductor,
    tasa_aceptacion: percent(offers.filter((o) => o.respuesta === "aceptada").length, offers.length + droppedBookings),
    tasa_completacion: percent(total, assigned),
    tasa_cancelacion: percent(cancelled, assigned),
    tiempo_promedio_respuesta: answered.length === 0 ? 0 : round(responseSeconds / answered.length),
    distancia_total_km: round(completed._sum.distancia_km ?? 0),
    horas_activo: round(activeMs(new Date(0)) / HOUR_MS),
    horas_hoy: round(activeMs(day.start) / HOUR_MS),
    ganancias_hoy: round(today._sum.ganancia_conductor ?? 0),
  };
}
