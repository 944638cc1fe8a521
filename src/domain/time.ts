/** Local time in Colombia. Bogotá has no daylight saving time, but Intl keeps that knowledge out of here. */
export const TIME_ZONE = "America/Bogota";

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

export function localTime(date: Date): LocalTime {
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
export function fromLocal(year: number, month: number, day: number, hour = 0, minute = 0): Date {
  const asUtc = Date.UTC(year, month - 1, day, hour, minute);
  const shown = localTime(new Date(asUtc));
  const offset = Date.UTC(shown.year, shown.month - 1, shown.day, shown.hour, shown.minute) - asUtc;
  return new Date(asUtc - offset);
}

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

/** The day after, the week after, the month after: the exclusive end of a period that starts at `start`. */
export const nextDay = (start: Date) => {
  const { year, month, day } = localTime(start);
  return fromLocal(year, month, day + 1);
};
export const nextWeek = (start: Date) => {
  const { year, month, day } = localTime(start);
  return fromLocal(year, month, day + 7);
};
export const nextMonth = (start: Date) => {
  const { year, month } = localTime(start);
  return fromLocal(year, month + 1, 1);
};
