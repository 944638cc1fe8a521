import { listNotifications, markNotificationRead, notificationsOwner } from "../../domain/notifications/notifications.js";
import { builder } from "../builder.js";
import { CALLER, LOOKUP } from "../errors.js";

const Notification = builder.prismaObject("Notification", {
  name: "Notificacion",
  select: { id: true },
  fields: (t) => ({
    id: t.exposeInt("id"),
    usuario_id: t.exposeInt("usuario_id"),
    tipo: t.exposeString("tipo"),
    titulo: t.exposeString("titulo"),
    mensaje: t.exposeString("mensaje"),
    leida: t.exposeBoolean("leida"),
    creado_en: t.expose("creado_en", { type: "DateTime" }),
  }),
});

builder.queryFields((t) => ({
  notifications: t.field({
    type: [Notification],
    description: "Las notificaciones de quien llama, las más recientes primero",
    errors: { types: CALLER },
    args: { soloNoLeidas: t.arg.boolean() },
    resolve: (_root, args, ctx) => listNotifications(ctx.deps, ctx.actor, args),
  }),
}));

builder.mutationFields((t) => ({
  markNotificationRead: t.field({
    type: Notification,
    errors: { types: [...CALLER, ...LOOKUP] },
    args: { id: t.arg.int({ required: true }) },
    resolve: (_root, args, ctx) => markNotificationRead(ctx.deps, ctx.actor, args.id),
  }),
}));

builder.subscriptionFields((t) => ({
  notifications: t.field({
    type: Notification,
    description: "Cada notificación nueva de quien se conecta (su token en los parámetros de conexión)",
    subscribe: (_root, _args, ctx) => ctx.pubsub.subscribe("notificacion", notificationsOwner(ctx.actor)),
    resolve: (notification) => notification,
  }),
}));
