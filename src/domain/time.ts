/** Local time in Colombia. Bogotá has no daylight saving time, but Intl keeps that knowledge out of here. */
const TIME_ZONE = "America/Bogota";

const parts = new Intl.DateTimeFormat("en-US", {
  timeZone: TIME_ZONE,
  hourCycle: "h23",
  year: "numeric",
  month: "numeric",
  day: "numeric",
  hour: "numeric",
  minute: "numeric",
  weekday: "short",
});

const WEEKDAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];

export interface LocalTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  /** 0 Monday … 6 Sunday */
  weekday: number;
}

/** The last minute asked for and its local time: a request asks several times, and formatting costs more than the rest. */
let last: { minute: number; time: LocalTime } | null = null;

export function localTime(date: Date): LocalTime {
  const minute = Math.floor(date.getTime() / 60_000);
  if (last?.minute !== minute) last = { minute, time: formatLocal(date) };
  return { ...last.time };
}

function formatLocal(date: Date): LocalTime {
  const all = Object.fromEntries(parts.formatToParts(date).map((p) => [p.type, p.value]));
  return {
    year: Number(all.year),
    month: Number(all.month),
    day: Number(all.day),
    hour: Number(all.hour),
    minute: Number(all.minute),
    weekday: WEEKDAYS.indexOf(all.weekday!),
  };
}

/** 0 (Monday 00h) … 167 (Sunday 23h), local time. */
export const hourOfWeek = (date: Date) => {
  const { weekday, hour } = localTime(date);
  return weekday * 24 + hour;
};

/** The instant at which the local wall clock shows the given time. */
function fromLocal(year: number, month: number, day: number, hour = 0, minute = 0, ms = 0): Date {
  const asUtc = Date.UTC(year, month - 1, day, hour, minute);
  const shown = localTime(new Date(asUtc));
  const offset = Date.UTC(shown.year, shown.month - 1, shown.day, shown.hour, shown.minute) - asUtc;
  return new Date(asUtc - offset + ms);
}

// Dart's toIso8601String() writes up to six decimals and no zone for local times.
const ISO_INSTANT = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}(?::?\d{2})?)?)?$/i;

/**
 * An ISO 8601 date or date-time as an instant, or null when it is not a real one. A value
 * without a zone is a wall-clock time in Colombia; a bare date is the start of that day there,
 * or its last instant with `endOfDay` (an expiry date is valid all day, also when sent as its midnight).
 */
export function parseInstant(value: string, options: { endOfDay?: boolean } = {}): Date | null {
  const match = ISO_INSTANT.exec(value.trim());
  if (!match) return null;
  const [, y, mo, d, h, mi, s, fraction, zone] = match;
  const [year, month, day, hour, minute, second] = [y, mo, d, h ?? "0", mi ?? "0", s ?? "0"].map(Number) as number[];
  const ms = Math.floor(Number(`0.${fraction ?? "0"}`) * 1000);
  const check = new Date(Date.UTC(year!, month! - 1, day!, hour!, minute!, second!));
  const real =
    check.getUTCFullYear() === year &&
    check.getUTCMonth() === month! - 1 &&
    check.getUTCDate() === day &&
    check.getUTCHours() === hour &&
    check.getUTCMinutes() === minute &&
    check.getUTCSeconds() === second;
  if (!real) return null;
  if (zone) {
    const offset = zone.toUpperCase() === "Z" ? 0 : zoneOffsetMs(zone);
    return new Date(check.getTime() + ms - offset);
  }
  // Date pickers send a chosen day as its local midnight: for an expiry that is still the whole day.
  const wholeDay = h === undefined || (options.endOfDay && hour === 0 && minute === 0 && second === 0 && ms === 0);
  if (wholeDay) {
    const start = fromLocal(year!, month!, day!);
    return options.endOfDay ? new Date(nextDay(start).getTime() - 1) : start;
  }
  return fromLocal(year!, month!, day!, hour!, minute!, second! * 1000 + ms);
}

/** "+05:00", "-0500" or "-05" as milliseconds east of UTC. */
function zoneOffsetMs(zone: string): number {
  const digits = zone.slice(1).replace(":", "");
  const minutes = Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2) || "0");
  return (zone.startsWith("-") ? -1 : 1) * minutes * 60_000;
}

/** The local calendar day `date` falls on, as AAAA-MM-DD. */
export const localDate = (date: Date) => {
  const { year, month, day } = localTime(date);
  return `${year}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
};

/** The local wall-clock time `date` falls on, as HH:MM. */
export const localClock = (date: Date) => {
  const { hour, minute } = localTime(date);
  return `${String(hour).padStart(2, "0")}:${String(minute).padStart(2, "0")}`;
};

/** Local calendar days from the day `from` falls on to the day `to` falls on: 0 the same day, 1 the next. */
export const calendarDaysBetween = (from: Date, to: Date) => {
  const dayOf = (date: Date) => {
    const { year, month, day } = localTime(date);
    return Date.UTC(year, month - 1, day);
  };
  return (dayOf(to) - dayOf(from)) / (24 * 3600 * 1000);
};

export const startOfDay = (date: Date) => {
  const { year, month, day } = localTime(date);
  return fromLocal(year, month, day);
};

/** Weeks start on Monday. */
export const startOfWeek = (date: Date) => {
  const { year, month, day, weekday } = localTime(date);
  return fromLocal(year, month, day - weekday);
};

export const startOfMonth = (date: Date) => {
  const { year, month } = localTime(date);
  return fromLocal(year, month, 1);
};

/** The start of the local day `days` after the one `date` falls on. */
export const daysAfter = (date: Date, days: number) => {
  const { year, month, day } = localTime(date);
  return fromLocal(year, month, day + days);
};

/** The day after, the week after, the month after: the exclusive end of a period that starts at `start`. */
export const nextDay = (start: Date) => daysAfter(start, 1);
export const nextWeek = (start: Date) => daysAfter(start, 7);
export const nextMonth = (start: Date) => {
  const { year, month } = localTime(start);
  return fromLocal(year, month + 1, 1);
};

/** [start, end): the instants a figure counts; no start counts from the beginning. */
export interface Span {
  start?: Date;
  end: Date;
}

/** A span as a condition on a date column. */
export const within = ({ start, end }: Span) => ({ ...(start ? { gte: start } : {}), lt: end });
