import { Repeater } from "graphql-yoga";
import { ForbiddenError, InvalidStateError, ValidationError } from "../../domain/errors.js";
import {
  acknowledgeSos,
  listSosIncidents,
  openSosIncidents,
  resolveSos,
  shareSosTrip,
  sosIncident,
  sosScope,
} from "../../domain/safety/incidents.js";
import { onlyNewer } from "../../domain/safety/sos-feed.js";
import type { SosStep } from "../../domain/safety/sos-history.js";
import { sendSos } from "../../domain/safety/sos.js";
import type { SosState, SosView } from "../../domain/safety/sos-views.js";
import type { TripRole as TripRoleValue } from "../../domain/trips/queries.js";
import { builder } from "../builder.js";
import { CALLER, LOOKUP, RESTRICTED } from "../errors.js";
import { describedEnum } from "./enums.js";
import { pageArgs, pageType } from "./lists.js";
import { TripRole } from "./trip.js";

const SosStateEnum = describedEnum("EstadoSos", "Dónde está un SOS", {
  abierto: "Enviado; ningún operador lo ha atendido",
  atendido: "Un operador lo atiende",
  resuelto: "Cerrado con una nota de lo que se hizo",
} satisfies Record<SosState, string>);

const SosStepEnum = describedEnum("PasoSos", "Lo que pasó con un SOS", {
  enviado: "El pasajero o el conductor lo envió",
  avisado: "Se escribió a sus contactos de emergencia y a operaciones",
  repetido: "Lo envió de nuevo antes de un minuto: es el mismo SOS",
  escalado: "Nadie lo atendió a tiempo: se avisó a SOS_ESCALATION_EMAIL",
  atendido: "Un operador lo tomó",
  enlace: "Un operador hizo un nuevo enlace de seguimiento del viaje",
  resuelto: "Un operador lo cerró con una nota",
} satisfies Record<SosStep, string>);

const SenderRef = builder.objectRef<NonNullable<SosView["remitente"]>>("RemitenteSos").implement({
  description: "Quien envió un SOS",
  fields: (t) => ({
    nombre: t.exposeString("nombre", { description: "Su nombre" }),
    apellido: t.exposeString("apellido", { description: "Su apellido" }),
    telefono: t.exposeString("telefono", { description: "Su teléfono, para llamarle" }),
  }),
});

type StepView = Awaited<ReturnType<typeof sosIncident>>["historial"][number];

const StepRef = builder.objectRef<StepView>("PasoIncidenteSos").implement({
  description: "Un paso en la historia de un SOS",
  fields: (t) => ({
    id: t.exposeInt("id", { description: "El paso, que crece con el tiempo" }),
    tipo: t.field({ type: SosStepEnum, description: "Qué pasó", resolve: (step) => step.tipo as SosStep }),
    actor_id: t.exposeInt("actor_id", { nullable: true, description: "Quién lo hizo; vacío si lo hizo el servicio" }),
    actor_nombre: t.exposeString("actor_nombre", { nullable: true, description: "Su nombre" }),
    detalle: t.exposeString("detalle", { nullable: true, description: "La posición enviada, a quién se escribió, la nota…" }),
    creado_en: t.expose("creado_en", { type: "DateTime", description: "Cuándo" }),
  }),
});

const SosRef = builder.objectRef<SosView>("IncidenteSos").implement({
  description: "Un SOS enviado desde un viaje activo, y lo que se ha hecho con él; nunca se borra",
  fields: (t) => ({
    id: t.exposeInt("id", { description: "El incidente" }),
    viaje_id: t.exposeInt("viaje_id", { description: "El viaje desde el que se envió" }),
    usuario_id: t.exposeInt("usuario_id", { description: "Quien lo envió" }),
    rol: t.field({ type: TripRole, description: "Si lo envió el pasajero o el conductor", resolve: (sos) => sos.rol as TripRoleValue }),
    remitente: t.field({
      type: SenderRef,
      nullable: true,
      description: "Quien lo envió (vacío si su cuenta ya no existe)",
      resolve: (sos) => sos.remitente,
    }),
    empresa_id: t.exposeInt("empresa_id", { nullable: true, description: "La empresa para la que se hacía el viaje, si la hay" }),
    latitud: t.exposeFloat("latitud", { description: "Dónde estaba al enviarlo" }),
    longitud: t.exposeFloat("longitud", { description: "Dónde estaba al enviarlo" }),
    creado_en: t.expose("creado_en", { type: "DateTime", description: "Cuándo lo envió" }),
    estado: t.field({ type: SosStateEnum, description: "Dónde está", resolve: (sos) => sos.estado as SosState }),
    atendido_por: t.exposeInt("atendido_por", { nullable: true, description: "El operador que lo atendió" }),
    atendido_en: t.expose("atendido_en", { type: "DateTime", nullable: true, description: "Cuándo lo atendió" }),
    resuelto_por: t.exposeInt("resuelto_por", { nullable: true, description: "El operador que lo resolvió" }),
    resuelto_en: t.expose("resuelto_en", { type: "DateTime", nullable: true, description: "Cuándo lo resolvió" }),
    nota: t.exposeString("nota", { nullable: true, description: "Lo que se hizo, al resolverlo" }),
    escalar_en: t.expose("escalar_en", {
      type: "DateTime",
      nullable: true,
      description: "Cuándo se escala si nadie lo atiende (vacío una vez atendido o escalado)",
    }),
    escalado_en: t.expose("escalado_en", {
      type: "DateTime",
      nullable: true,
      description: "Cuándo se escaló porque nadie lo atendió a tiempo; se conserva como historia una vez atendido",
    }),
    escalado: t.exposeBoolean("escalado", {
      description:
        "Si está escalado ahora: nadie lo atendió a tiempo y sigue sin atender. Deja de estarlo en cuanto un operador lo atiende",
    }),
    enlace_seguimiento: t.exposeString("enlace", {
      nullable: true,
      description:
        "El enlace para seguir el viaje en vivo, solo donde se acaba de hacer: en la alerta del SOS y al pedir uno nuevo " +
        "(shareSosTrip). Se guarda solo su huella, así que no se puede volver a leer",
    }),
    version: t.exposeInt("version", { description: "El último paso: de dos copias del mismo SOS, la de versión mayor es la más nueva" }),
  }),
});

const SosDetailRef = builder.objectRef<Awaited<ReturnType<typeof sosIncident>>>("DetalleIncidenteSos").implement({
  description: "Un SOS con su historia",
  fields: (t) => ({
    incidente: t.field({ type: SosRef, description: "El SOS", resolve: (detail) => detail }),
    historial: t.field({ type: [StepRef], description: "Sus pasos, del primero al último", resolve: (detail) => detail.historial }),
  }),
});

const SosPage = pageType("PaginaIncidentesSos", SosRef, "Una página de incidentes SOS");

const incidentArg = builder.args((t) => ({ incidente_id: t.int({ required: true, description: "El SOS" }) }));
const READ = { types: [...RESTRICTED, ...LOOKUP] };
const MOVE = { types: [...RESTRICTED, ...LOOKUP, InvalidStateError] };

builder.queryFields((t) => ({
  sosIncidents: t.field({
    type: SosPage,
    description: "Los SOS, los más recientes primero: todos para los administradores, los de los viajes de su empresa para un gestor",
    errors: { types: [...RESTRICTED, ValidationError] },
    args: { ...pageArgs, estado: t.arg({ type: SosStateEnum, description: "Solo los de este estado" }) },
    resolve: (_root, args, ctx) => listSosIncidents(ctx.deps, ctx.actor, args),
  }),
  sosIncident: t.field({
    type: SosDetailRef,
    description: "Un SOS con su historia (administradores; un gestor, los de los viajes de su empresa)",
    errors: READ,
    args: incidentArg,
    resolve: (_root, args, ctx) => sosIncident(ctx.deps, ctx.actor, args.incidente_id),
  }),
}));

builder.mutationFields((t) => ({
  sendSos: t.field({
    type: SosRef,
    description:
      "El pasajero o el conductor de un viaje activo pide ayuda: avisa en el acto a la consola de operaciones y escribe a sus " +
      "contactos de emergencia y a operaciones. Repetido antes de un minuto (o con la misma Idempotency-Key) es el mismo SOS",
    errors: { types: [...CALLER, ForbiddenError, ...LOOKUP] },
    args: {
      viaje_id: t.arg.int({ required: true, description: "El viaje activo" }),
      latitud: t.arg.float({ required: true, description: "Dónde está quien lo envía" }),
      longitud: t.arg.float({ required: true, description: "Dónde está quien lo envía" }),
    },
    resolve: (_root, args, ctx) => sendSos(ctx.deps, ctx.actor, args),
  }),
  acknowledgeSos: t.field({
    type: SosRef,
    description: "Un operador (administrador) atiende un SOS abierto: deja de escalarse (auditado)",
    errors: MOVE,
    args: incidentArg,
    resolve: (_root, args, ctx) => acknowledgeSos(ctx.deps, ctx.actor, args.incidente_id),
  }),
  resolveSos: t.field({
    type: SosRef,
    description: "Un operador cierra un SOS atendido con una nota de lo que se hizo (auditado)",
    errors: MOVE,
    args: { ...incidentArg, nota: t.arg.string({ required: true, description: "Lo que se hizo" }) },
    resolve: (_root, args, ctx) => resolveSos(ctx.deps, ctx.actor, args.incidente_id, args),
  }),
  shareSosTrip: t.field({
    type: SosRef,
    description: "Un nuevo enlace para seguir en vivo el viaje de un SOS, para el operador que lo pide (auditado)",
    errors: READ,
    args: incidentArg,
    resolve: (_root, args, ctx) => shareSosTrip(ctx.deps, ctx.actor, args.incidente_id),
  }),
}));

builder.subscriptionFields((t) => ({
  sosAlerts: t.field({
    type: SosRef,
    description:
      "Los SOS en vivo: primero los que no están resueltos, luego cada uno nuevo y cada cambio (atendido, escalado, resuelto…). " +
      "Los administradores los reciben todos; un gestor, los de los viajes de su empresa",
    subscribe: async (_root, _args, ctx) => {
      const scope = await sosScope(ctx.deps, ctx.actor);
      return new Repeater<SosView>(async (push, stop) => {
        const changes = ctx.pubsub.subscribe("sos", scope.key);
        void stop.then(() => changes.return());
        const newer = onlyNewer();
        // Listening before reading the open ones: nothing sent in between is missed.
        const first = changes.next();
        for (const view of (await openSosIncidents(ctx.deps, scope.where)).reverse()) if (newer(view)) await push(view);
        for (let step = await first; !step.done; step = await changes.next()) if (newer(step.value)) await push(step.value);
        stop();
      });
    },
    resolve: (view) => view,
  }),
}));
