import type { Db, Tx } from "../../db/client.js";
import type { OutgoingMail } from "../deps.js";

/** Where an outbox mail is: waiting to go, sent, given up on, or expired before it could go. */
export const MAIL_STATES = ["pendiente", "enviado", "fallido", "vencido"] as const;
type MailState = (typeof MAIL_STATES)[number];

/**
 * Mail is written to the outbox table in the same transaction as the change that causes it,
 * so a rolled-back request sends nothing and a committed one is never lost. It is due at once,
 * by the same clock the relay reads.
 */
export async function queueMail(tx: Tx, now: Date, mail: OutgoingMail): Promise<OutgoingMail> {
  await tx.outboxMail.create({ data: { ...mail, creado_en: now, proximo_intento: now } });
  return mail;
}

/** The outbox's mail in each state (0 for a state nothing is in). */
export async function countOutbox(db: Db): Promise<Record<MailState, number>> {
  const groups = await db.outboxMail.groupBy({ by: ["estado"], _count: { _all: true } });
  const count = (estado: MailState) => groups.find((group) => group.estado === estado)?._count._all ?? 0;
  return { pendiente: count("pendiente"), enviado: count("enviado"), fallido: count("fallido"), vencido: count("vencido") };
}
