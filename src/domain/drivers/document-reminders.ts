import { isUniqueViolation } from "../../db/client.js";
import { tellManagers } from "../notifications/managers.js";
import type { Deps } from "../deps.js";
import { plainName } from "../mail/templates.js";
import { deliver, nothingTold, tell } from "../notifications/tell.js";
import { calendarDaysBetween, daysAfter, localDate } from "../time.js";
import { DOCUMENTS } from "./readiness.js";

/*
 * A driver, and the managers of their company if they have one, are reminded on their feed and by
 * mail 30, 7 and 1 days (Bogotá calendar days) before a licence, SOAT or tecnomecánica expires. A
 * reminder is due from the day its threshold is reached. A document first seen past several of them
 * (registered or renewed 5 days before it expires, or a service that was down) gets only the
 * tightest (7): the earlier ones would say the same, later. Each (driver, document, expiry date,
 * threshold) is sent once whatever the processes and restarts: its row in recordatorios_documentos
 * is written in the transaction that queues the mail, and its unique key lets only one process
 * write it. A renewed document has a new expiry date, and so reminders of its own.
 */

/** Days before expiry, widest first. */
const REMINDER_DAYS = [30, 7, 1] as const;

/** Whose documents are watched: drivers' accounts in use. A suspended one is too: they need them in force to come back. */
const REMINDED = { tipo_usuario: "conductor", es_activo: true, eliminado_en: null };
const DRIVER = { id: true, nombre: true, apellido: true, email: true, empresa_id: true } as const;

interface Reminder {
  driver: { id: number; nombre: string; apellido: string; email: string; empresa_id: number | null };
  document: (typeof DOCUMENTS)[number];
  vence_en: Date;
  dias: number;
  /** Calendar days until the expiry date: 0 when it expires today. */
  left: number;
}

const sentKey = (conductorId: number, venceEn: Date, dias: number) => `${conductorId}/${venceEn.getTime()}/${dias}`;

/** The reminders due now and not sent yet: two queries per document, whatever the number of drivers. */
export async function dueReminders(deps: Pick<Deps, "db" | "clock">): Promise<Reminder[]> {
  const now = deps.clock.now();
  // In force, and expiring at most the widest threshold's days from today.
  const soon = { gt: now, lt: daysAfter(now, REMINDER_DAYS[0] + 1) };
  const perDocument = await Promise.all(
    DOCUMENTS.map(async (document) => {
      const drivers = await deps.db.driverProfile.findMany({
        where: { conductor: REMINDED, ...document.expiring(soon) },
        select: { conductor: { select: DRIVER }, licencia: true, vehiculo: true },
      });
      const sent = await deps.db.documentReminder.findMany({
        where: { documento: document.key, conductor_id: { in: drivers.map((driver) => driver.conductor.id) }, vence_en: soon },
        select: { conductor_id: true, vence_en: true, dias: true },
      });
      const done = new Set(sent.map((row) => sentKey(row.conductor_id, row.vence_en, row.dias)));
      return drivers.flatMap((driver): Reminder[] => {
        const vence_en = document.read(driver)!;
        const left = calendarDaysBetween(now, vence_en);
        const dias = REMINDER_DAYS.findLast((days) => left <= days)!;
        return done.has(sentKey(driver.conductor.id, vence_en, dias)) ? [] : [{ driver: driver.conductor, document, vence_en, dias, left }];
      });
    }),
  );
  return perDocument.flat();
}

/** Records one reminder and tells the driver and their company's managers, all in one transaction. */
export async function remind(deps: Deps, { driver, document, vence_en, dias, left }: Reminder): Promise<void> {
  const fecha = localDate(vence_en);
  const when = left === 0 ? "hoy" : left === 1 ? "mañana" : `en ${left} días`;
  const told = nothingTold();
  try {
    await deps.db.$transaction(async (tx) => {
      // First: a process sending the same reminder at once stops here, on the row's unique key.
      await tx.documentReminder.create({
        data: { conductor_id: driver.id, documento: document.key, vence_en, dias, creado_en: deps.clock.now() },
      });
      await tell(tx, deps, told, driver, {
        tipo: "documento_por_vencer",
        titulo: `Vence ${document.label} ${when}`,
        mensaje:
          `Según tus datos, ${document.label} vence el ${fecha} (${when}). Renueva el documento y registra ` +
          "la nueva fecha en la app: con un documento vencido no podrás conectarte.",
      });
      if (driver.empresa_id === null) return;
      const name = plainName(`${driver.nombre} ${driver.apellido}`) ?? "uno de tus conductores";
      await tellManagers(
        tx,
        deps,
        told,
        { id: driver.empresa_id },
        {
          tipo: "documento_por_vencer",
          titulo: `Vence ${document.label} de ${name} ${when}`,
          mensaje:
            `Según sus datos, ${document.label} de ${name} vence el ${fecha} (${when}). Si no renueva el ` +
            "documento y registra la nueva fecha a tiempo, no podrá conectarse cuando venza.",
        },
      );
    });
  } catch (error) {
    // Another process sent it. On PostgreSQL the violation ends the transaction: hence one per reminder.
    if (isUniqueViolation(error)) return;
    throw error;
  }
  deliver(deps, told);
}
