import { daysAfter, localDate, parseInstant } from "../../src/domain/time.js";
import type { TestApp } from "./app.js";

export type ExpiringDocument = "licencia" | "soat" | "tecnomecanica";

/** The Bogotá date `days` from the app's today, as AAAA-MM-DD. */
export const inDays = (app: TestApp, days: number) => localDate(daysAfter(app.server.deps.clock.now(), days));

/** Sets a driver's document to expire `days` from today as the app stores a date it is sent (valid all that day), and answers that instant. */
export async function expiresIn(app: TestApp, driver: { id: number }, document: ExpiringDocument, days: number): Promise<Date> {
  const date = parseInstant(inDays(app, days), { endOfDay: true })!;
  if (document === "licencia") await app.db.license.update({ where: { conductor_id: driver.id }, data: { fecha_expiracion: date } });
  else {
    const column = document === "soat" ? "soat_vencimiento" : "tecnomecanica_vencimiento";
    await app.db.vehicle.update({ where: { conductor_id: driver.id }, data: { [column]: date } });
  }
  return date;
}

/** The reminders recorded for a driver, oldest first. */
export const remindersOf = (app: TestApp, driver: { id: number }) =>
  app.db.documentReminder.findMany({
    where: { conductor_id: driver.id },
    orderBy: { id: "asc" },
    select: { documento: true, vence_en: true, dias: true },
  });

/** The reminder mails an address was sent, oldest first. */
export const remindersTo = (app: TestApp, email: string) =>
  app.db.outboxMail.findMany({
    where: { destinatario: email, asunto: { startsWith: "Vence " } },
    orderBy: { id: "asc" },
    select: { asunto: true, cuerpo: true },
  });
