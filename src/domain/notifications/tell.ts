import type { Tx } from "../../db/client.js";
import type { Notification } from "../../db/models.js";
import type { Deps, OutgoingMail } from "../deps.js";
import { queueMail } from "../mail/outbox.js";
import { plainName, serviceMail } from "../mail/templates.js";
import { announce, createNotification, type NotificationContent } from "./notifications.js";

/** What a user was told inside a transaction: delivered with `deliver` once it commits. */
export interface Told {
  notifications: Notification[];
  mails: OutgoingMail[];
}

export const nothingTold = (): Told => ({ notifications: [], mails: [] });

/**
 * Tells a user something twice: on their notification feed and by mail, both stored in the
 * caller's transaction so that neither exists without the change that caused it.
 */
export async function tell(
  tx: Tx,
  deps: Pick<Deps, "clock">,
  told: Told,
  user: { id: number; email: string; nombre: string },
  message: NotificationContent & { lineas?: string[] },
): Promise<void> {
  const { lineas, ...content } = message;
  told.notifications.push(await createNotification(tx, user.id, content));
  const name = plainName(user.nombre);
  const mail = await serviceMail(tx, {
    destinatario: user.email,
    asunto: content.titulo,
    lineas: [name ? `Hola ${name}:` : "Hola:", "", content.mensaje, ...(lineas ? ["", ...lineas] : [])],
  });
  told.mails.push(await queueMail(tx, deps.clock.now(), mail));
}

/** `tell`, to a user known by id: their name and address read in the same transaction. */
export async function tellUser(
  tx: Tx,
  deps: Pick<Deps, "clock">,
  told: Told,
  usuarioId: number,
  message: NotificationContent & { lineas?: string[] },
): Promise<void> {
  const user = await tx.user.findUniqueOrThrow({ where: { id: usuarioId }, select: { id: true, email: true, nombre: true } });
  await tell(tx, deps, told, user, message);
}

/** Announces what a committed transaction told. */
export function deliver(deps: Pick<Deps, "events" | "onMailQueued">, told: Told): void {
  for (const notification of told.notifications) announce(deps, notification);
  for (const mail of told.mails) deps.onMailQueued(mail);
}
