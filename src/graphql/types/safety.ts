import { ConflictError, InvalidStateError, NotFoundError } from "../../domain/errors.js";
import { addEmergencyContact, emergencyContacts, MAX_CONTACTS, removeEmergencyContact } from "../../domain/safety/contacts.js";
import { MAX_SHARES_PER_TRIP, revokeTripShare, type ShareLink, shareTrip, tripShares } from "../../domain/safety/sharing.js";
import { Deleted, builder } from "../builder.js";
import { CALLER, LOOKUP, RESTRICTED } from "../errors.js";

const EmergencyContactRef = builder.prismaObject("EmergencyContact", {
  name: "ContactoEmergencia",
  description: `Alguien a quien avisar en una emergencia; cada persona guarda hasta ${MAX_CONTACTS}`,
  fields: (t) => ({
    id: t.exposeInt("id", { description: "El contacto" }),
    nombre: t.exposeString("nombre", { description: "Su nombre" }),
    telefono: t.exposeString("telefono", { nullable: true, description: "Su celular colombiano, 10 dígitos" }),
    email: t.exposeString("email", { nullable: true, description: "Su correo" }),
    creado_en: t.expose("creado_en", { type: "DateTime", description: "Cuándo se agregó" }),
  }),
});

const EmergencyContactInput = builder.inputType("ContactoEmergenciaInput", {
  description: "Un contacto de emergencia: su nombre, y un celular colombiano, un correo o ambos",
  fields: (t) => ({
    nombre: t.string({ required: true, description: "Su nombre" }),
    telefono: t.string({ description: "Celular colombiano (10 dígitos que empiezan por 3; con o sin +57, espacios o guiones)" }),
    email: t.string({ description: "Su correo" }),
  }),
});

const ShareLinkRef = builder.objectRef<ShareLink>("EnlaceSeguimiento").implement({
  description:
    "Un enlace que deja seguir un viaje en vivo sin cuenta (/seguimiento/<token>): estado, primer nombre del conductor, " +
    "vehículo, posición, recogida, destino y llegada estimada; nunca teléfonos, correos ni apellidos",
  fields: (t) => ({
    id: t.exposeInt("id", { description: "El enlace" }),
    viaje_id: t.exposeInt("viaje_id", { description: "El viaje que muestra" }),
    url: t.exposeString("url", {
      nullable: true,
      description:
        "Su dirección, solo en la respuesta que lo crea: del token se guarda solo su huella, así que no se puede volver a mostrar",
    }),
    vigente: t.exposeBoolean("vigente", { description: "Si muestra el viaje ahora" }),
    vence_en: t.expose("vence_en", {
      type: "DateTime",
      nullable: true,
      description:
        "Cuándo deja (o dejó) de mostrarlo: al revocarlo, o 30 minutos después de que el viaje termine; vacío mientras el viaje sigue",
    }),
    avisados: t.exposeStringList("avisados", {
      description: "Los contactos de emergencia a los que se envió por correo al crearlo, por su nombre; se guardan con el enlace",
    }),
    creado_en: t.expose("creado_en", { type: "DateTime", description: "Cuándo se creó" }),
    revocado_en: t.expose("revocado_en", { type: "DateTime", nullable: true, description: "Cuándo lo revocó quien lo hizo" }),
  }),
});

builder.queryFields((t) => ({
  emergencyContacts: t.field({
    type: [EmergencyContactRef],
    description: "Los contactos de emergencia de quien llama, del más antiguo al más nuevo",
    errors: { types: [...CALLER, NotFoundError], dataField: { description: "Los contactos" } },
    resolve: (_root, _args, ctx) => emergencyContacts(ctx.deps, ctx.actor),
  }),
  tripShares: t.field({
    type: [ShareLinkRef],
    description: "Los enlaces de seguimiento que quien llama hizo para un viaje suyo (como pasajero o conductor), los más nuevos primero",
    errors: { types: [...RESTRICTED, ...LOOKUP], dataField: { description: "Los enlaces" } },
    args: { trip_id: t.arg.int({ required: true, description: "El viaje" }) },
    resolve: (_root, args, ctx) => tripShares(ctx.deps, ctx.actor, args.trip_id),
  }),
}));

builder.mutationFields((t) => ({
  addEmergencyContact: t.field({
    type: EmergencyContactRef,
    description: `Quien llama agrega un contacto de emergencia (hasta ${MAX_CONTACTS})`,
    errors: { types: [...CALLER, ...LOOKUP, ConflictError] },
    args: { input: t.arg({ type: EmergencyContactInput, required: true, description: "El contacto" }) },
    resolve: (_root, { input }, ctx) => addEmergencyContact(ctx.deps, ctx.actor, input),
  }),
  removeEmergencyContact: t.field({
    type: Deleted,
    description: "Quien llama quita uno de sus contactos de emergencia",
    errors: { types: [...CALLER, ...LOOKUP] },
    args: { contacto_id: t.arg.int({ required: true, description: "El contacto" }) },
    resolve: async (_root, args, ctx) => ({ id: await removeEmergencyContact(ctx.deps, ctx.actor, args) }),
  }),
  shareTrip: t.field({
    type: ShareLinkRef,
    description:
      "El pasajero o el conductor de un viaje activo hace un enlace para seguirlo en vivo, y si lo pide lo envía por correo a " +
      `sus contactos de emergencia con correo; hasta ${MAX_SHARES_PER_TRIP} enlaces por viaje`,
    errors: { types: [...RESTRICTED, ...LOOKUP, InvalidStateError, ConflictError] },
    args: {
      trip_id: t.arg.int({ required: true, description: "El viaje" }),
      enviar_a_contactos: t.arg.boolean({ description: "Enviarlo ya por correo a los contactos de emergencia que tienen correo" }),
    },
    resolve: (_root, args, ctx) => shareTrip(ctx.deps, ctx.actor, args),
  }),
  revokeTripShare: t.field({
    type: ShareLinkRef,
    description: "Quien hizo un enlace de seguimiento lo revoca: deja de mostrar el viaje, también en las páginas ya abiertas",
    errors: { types: [...CALLER, ...LOOKUP] },
    args: { enlace_id: t.arg.int({ required: true, description: "El enlace" }) },
    resolve: (_root, args, ctx) => revokeTripShare(ctx.deps, ctx.actor, args.enlace_id),
  }),
}));
