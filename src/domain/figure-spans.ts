import { z } from "zod";
import { ValidationError } from "./errors.js";
import { nextDay, nextMonth, type Span, startOfDay, startOfMonth } from "./time.js";
import { isoDate, optional, parseInput, type Raw } from "./validation.js";

/** The range a page of figures may ask for: Bogotá days, or instants, both ends optional. */
export const rangeSchema = z.object({ desde: optional(isoDate()), hasta: optional(isoDate({ endOfDay: true })) });

/** Without a range the charts cover the last 7 days; a range's days, up to this many (its last ones). */
const DEFAULT_DAYS = 7;
const MAX_DAYS = 31;
/** A range this short is charted hour by hour; longer ones day by day. */
const HOURLY_UP_TO_MS = 2 * 24 * 3600 * 1000;
const HOUR_MS = 3600 * 1000;
const DAY_MS = 24 * HOUR_MS;

export type Bucket = Required<Span>;

/** The starts of the `count` Bogotá days ending with the one containing `last`, leaving out those wholly before `notBefore`. */
function lastDays(last: Date, count: number, notBefore?: Date): Date[] {
  const days: Date[] = [];
  for (let day = startOfDay(new Date(last.getTime() - (count - 1) * DAY_MS)); day <= last; day = nextDay(day)) {
    if (!notBefore || nextDay(day) > notBefore) days.push(day);
  }
  return days;
}

/** The hours from the one containing `start` to the one containing the instant before `end`. */
function lastHours(start: Date, end: Date): Bucket[] {
  const hours: Bucket[] = [];
  // Bogotá is a whole number of hours from UTC, so its hours start where UTC's do.
  for (let at = Math.floor(start.getTime() / HOUR_MS) * HOUR_MS; at < end.getTime(); at += HOUR_MS) {
    hours.push({ start: new Date(at), end: new Date(at + HOUR_MS) });
  }
  return hours;
}

/**
 * What a page of figures counts at `now`: today and this month (Bogotá calendar), the range asked
 * for (null without one; open at the start without desde, up to now without hasta), its days, and
 * the points of its charts: hours for a range of 2 days or less, days otherwise.
 */
export function figureSpans(now: Date, input: Raw<typeof rangeSchema>) {
  const { desde, hasta } = parseInput(rangeSchema, input);
  if (desde && hasta && desde > hasta) throw new ValidationError("debe ser posterior o igual a 'desde'", "hasta");
  const today: Bucket = { start: startOfDay(now), end: nextDay(startOfDay(now)) };
  const month: Bucket = { start: startOfMonth(now), end: nextMonth(startOfMonth(now)) };
  const range: Span | null = desde || hasta ? { start: desde, end: hasta ? new Date(hasta.getTime() + 1) : now } : null;
  const days = range ? lastDays(new Date(range.end.getTime() - 1), MAX_DAYS, range.start) : lastDays(now, DEFAULT_DAYS);
  const hours = range?.start && range.end.getTime() - range.start.getTime() <= HOURLY_UP_TO_MS ? lastHours(range.start, range.end) : null;
  return {
    today,
    month,
    range,
    days,
    intervalo: hours ? ("hora" as const) : ("dia" as const),
    buckets: hours ?? days.map((start): Bucket => ({ start, end: nextDay(start) })),
  };
}

/** The last instant of a range, as the figures show it. */
export const lastInstant = (span: Span) => new Date(span.end.getTime() - 1);
