import type { Tx } from "../../db/client.js";
import type { Notification } from "../../db/models.js";
import { member, type Actor } from "../actor.js";
import type { Deps } from "../deps.js";
import { NotFoundError } from "../errors.js";
import { positiveId, fieldParser } from "../validation.js";
import { NOTIFICATION_RULES } from "./access.js";

const parseNotificationId = fieldParser("id", positiveId());

export interface NotificationContent {
  tipo: string;
  titulo: string;
  mensaje: string;
}

/** Stores a notification inside the caller's transaction; `announce` it once that commits. */
export function createNotification(tx: Tx, usuarioId: number, content: NotificationContent) {
  return tx.notification.create({ data: { usuario_id: usuarioId, ...content } });
}

export function announce(deps: Pick<Deps, "events">, notification: Notification): void {
  deps.events.publish("notificacion", notification.usuario_id, notification);
}

/** Notifications are only ever their own user's: the caller's. */
export const notificationsOwner = (actor: Actor) => member(actor, NOTIFICATION_RULES.own).id;

export function listNotifications(deps: Deps, actor: Actor, options: { soloNoLeidas?: boolean | null }) {
  const usuarioId = notificationsOwner(actor);
  return deps.db.notification.findMany({
    where: { usuario_id: usuarioId, ...(options.soloNoLeidas ? { leida: false } : {}) },
    orderBy: [{ creado_en: "desc" }, { id: "desc" }],
  });
}

/** Marks one of the user's own notifications as read. */
export async function markNotificationRead(deps: Deps, actor: Actor, id: unknown) {
  const usuarioId = notificationsOwner(actor);
  const notificationId = parseNotificationId(id);
  const { count } = await deps.db.notification.updateMany({
    where: { id: notificationId, usuario_id: usuarioId },
    data: { leida: true },
  });
  if (count === 0) throw new NotFoundError(`No tienes una notificación con id ${notificationId}`);
  return deps.db.notification.findUniqueOrThrow({ where: { id: notificationId } });
}
