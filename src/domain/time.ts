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
