// Figures and times as operators in Colombia read them: pesos without decimals, Bogotá time.
const PESOS = new Intl.NumberFormat("es-CO", { style: "currency", currency: "COP", maximumFractionDigits: 0 });
const NUMBER = new Intl.NumberFormat("es-CO");
const DATE_TIME = new Intl.DateTimeFormat("es-CO", { dateStyle: "medium", timeStyle: "short", timeZone: "America/Bogota" });
const DATE = new Intl.DateTimeFormat("es-CO", { dateStyle: "medium", timeZone: "America/Bogota" });
const DAY = new Intl.DateTimeFormat("es-CO", { day: "numeric", month: "short", timeZone: "America/Bogota" });
const HOUR = new Intl.DateTimeFormat("es-CO", { hour: "numeric", timeZone: "America/Bogota" });
const CLOCK = new Intl.DateTimeFormat("es-CO", { hour: "numeric", minute: "2-digit", timeZone: "America/Bogota" });
const LONG_DAY = new Intl.DateTimeFormat("es-CO", { weekday: "long", day: "numeric", month: "long", timeZone: "America/Bogota" });
const ISO_DAY = new Intl.DateTimeFormat("en-CA", { year: "numeric", month: "2-digit", day: "2-digit", timeZone: "America/Bogota" });

export const pesos = (value: number) => PESOS.format(value);
export const number = (value: number) => NUMBER.format(value);
/** "1 solicitud", "3 solicitudes": a count with its noun. */
export const counted = (value: number, one: string, many: string) => `${NUMBER.format(value)} ${value === 1 ? one : many}`;
export const percent = (value: number) => `${NUMBER.format(Math.round(value * 10) / 10)} %`;

const valid = (value: string | null | undefined) => (value ? new Date(value) : null);

export function dateTime(value: string | null | undefined) {
  const date = valid(value);
  return date ? DATE_TIME.format(date) : "—";
}

export function date(value: string | null | undefined) {
  const date = valid(value);
  return date ? DATE.format(date) : "—";
}

/** "12 nov", for chart labels. */
export const shortDay = (value: string) => DAY.format(new Date(value.length === 10 ? `${value}T12:00:00-05:00` : value));

/** "3 p. m.", for hourly chart labels. */
export const shortHour = (value: string) => HOUR.format(new Date(value));

/** "7:30 a. m.": the time of day, in Bogotá. */
export const clock = (value: string) => CLOCK.format(new Date(value));

/** "jueves, 12 de marzo": a day in words, in Bogotá. */
export const longDay = (value: string) => LONG_DAY.format(new Date(value));

/** Today, or `days` from today, as AAAA-MM-DD in Bogotá: what the API's date arguments take. */
export function bogotaDay(days = 0) {
  return ISO_DAY.format(new Date(Date.now() + days * 86_400_000));
}
