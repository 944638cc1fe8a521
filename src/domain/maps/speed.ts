import type { Db } from "../../db/client.js";
import { completedSpeeds } from "../../db/trip-rows.js";
import { hourOfWeek, localTime } from "../time.js";

/**
 * Typical door-to-door speeds in Colombian cities, km/h, by local time: peak hours (07-09 and
 * 17-19 on weekdays) crawl, nights (22-06) flow, the rest of the day is in between, weekends
 * are lighter.
 */
export const SPEEDS = { peak: 14, day: 22, weekendDay: 26, night: 32 } as const;

export type Period = "peak" | "night" | "day" | "weekend";

/** Local hours [from, to) of the weekday peaks, and of the night, which wraps past midnight (fares surcharge both). */
export const PEAK_HOURS = [
  [7, 9],
  [17, 19],
] as const;
export const NIGHT_HOURS = [22, 6] as const;

export function periodAt(date: Date): Period {
  const { hour, weekday } = localTime(date);
  if (hour >= NIGHT_HOURS[0] || hour < NIGHT_HOURS[1]) return "night";
  if (weekday >= 5) return "weekend";
  if (PEAK_HOURS.some(([from, to]) => hour >= from && hour < to)) return "peak";
  return "day";
}

export function modelSpeed(date: Date): number {
  const period = periodAt(date);
  return period === "weekend" ? SPEEDS.weekendDay : SPEEDS[period];
}

/** Completed trips of one hour of the week needed before their speed counts at all. */
export const MIN_HISTORY_TRIPS = 10;
/** The history weighs trips / (trips + HISTORY_PRIOR): half at 30 trips, more as they accumulate. */
export const HISTORY_PRIOR = 30;

export interface SpeedHistory {
  trips: number;
  averageKmh: number | null;
}

export function blendSpeed(model: number, history: SpeedHistory): number {
  if (history.trips < MIN_HISTORY_TRIPS || history.averageKmh === null) return model;
  const weight = history.trips / (history.trips + HISTORY_PRIOR);
  return weight * history.averageKmh + (1 - weight) * model;
}

export async function travelSpeed(db: Db, at: Date): Promise<number> {
  // What the platform's own completed trips say about this hour of the week.
  return blendSpeed(modelSpeed(at), await completedSpeeds(db, hourOfWeek(at)));
}

/** Minutes to cover `distanceKm`; with a provider's free-flow time, that time slowed by the traffic of the moment. */
export function travelMinutes(distanceKm: number, speedKmh: number, freeFlowMinutes: number | null): number {
  const minutes = freeFlowMinutes === null ? (distanceKm / speedKmh) * 60 : freeFlowMinutes * (SPEEDS.night / speedKmh);
  return Math.max(1, Math.ceil(minutes));
}

/** Speeds outside this range are measurement errors (a trip closed late, a wrong distance), not traffic. */
const PLAUSIBLE_KMH = { min: 2, max: 120 } as const;

/** The figures a completed trip contributes to the history, or nulls when they are implausible. */
export function observedSpeed(distanceKm: number, start: Date, end: Date) {
  const hours = (end.getTime() - start.getTime()) / 3_600_000;
  const kmh = hours > 0 ? distanceKm / hours : Number.NaN;
  const plausible = Number.isFinite(kmh) && kmh >= PLAUSIBLE_KMH.min && kmh <= PLAUSIBLE_KMH.max;
  return { hora_semana: hourOfWeek(start), velocidad_real_kmh: plausible ? kmh : null };
}
