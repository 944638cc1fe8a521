import { listNotifications, markNotificationRead, notificationsOwner } from "../../domain/notifications/notifications.js";
import { builder } from "../builder.js";
import { CALLER, LOOKUP } from "../errors.js";

const Notification = builder.prismaObject("Notification", {
  name: "Notificacion",
  description: "Un aviso para un usuario",
  select: { id: true },
  fields: (t) => ({
    id: t.exposeInt("id", { description: "La notificación" }),
    usuario_id: t.exposeInt("usuario_id", { description: "Para quién" }),
    tipo: t.exposeString("tipo", { description: "De qué trata, como cuenta_suspendida o retiro" }),
    titulo: t.exposeString("titulo", { description: "Su título" }),
    mensaje: t.exposeString("mensaje", { description: "Su texto" }),
    leida: t.exposeBoolean("leida", { description: "Si ya la leyó" }),
    creado_en: t.expose("creado_en", { type: "DateTime", description: "Cuándo se creó" }),
  }),
});

builder.queryFields((t) => ({
  notifications: t.field({
    type: [Notification],
    description: "Las notificaciones de quien llama, las más recientes primero",
    errors: { types: CALLER, dataField: { description: "Las notificaciones" } },
    args: { soloNoLeidas: t.arg.boolean({ description: "Solo las no leídas" }) },
    resolve: (_root, args, ctx) => listNotifications(ctx.deps, ctx.actor, args),
  }),
}));

builder.mutationFields((t) => ({
  markNotificationRead: t.field({
    type: Notification,
    description: "Marca leída una notificación de quien llama",
    errors: { types: [...CALLER, ...LOOKUP] },
    args: { id: t.arg.int({ required: true, description: "La notificación" }) },
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
