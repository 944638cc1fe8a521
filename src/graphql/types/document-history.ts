import { documentHistory } from "../../domain/drivers/document-history.js";
import type { DOCUMENT_TYPES } from "../../domain/drivers/documents.js";
import { NotFoundError } from "../../domain/errors.js";
import { builder } from "../builder.js";
import { RESTRICTED } from "../errors.js";
import { describedEnum, DocumentTypeEnum, REVIEW_STATE_DESCRIPTIONS } from "./enums.js";

type Photo = Awaited<ReturnType<typeof documentHistory>>[number];

const PhotoStateEnum = describedEnum("EstadoFotoDocumento", "Cómo está una foto de un documento: la actual, como la solicitud", {
  ...REVIEW_STATE_DESCRIPTIONS,
  reemplazado: "Otra foto la reemplazó",
});
type PhotoState = keyof typeof REVIEW_STATE_DESCRIPTIONS | "reemplazado";

export const DocumentPhoto = builder.objectRef<Photo>("FotoDocumento").implement({
  description: "Una foto que un conductor tuvo para uno de sus documentos",
  fields: (t) => ({
    id: t.exposeInt("id", { description: "Su identificador" }),
    // Photos are only ever recorded for the upload's document types.
    tipo_documento: t.field({
      type: DocumentTypeEnum,
      description: "De qué documento es",
      resolve: (photo) => photo.tipo_documento as (typeof DOCUMENT_TYPES)[number],
    }),
    url: t.string({ description: "Enlace firmado a la foto, que vence", resolve: (photo, _args, ctx) => ctx.deps.uploads.link(photo.url) }),
    subido_en: t.expose("subido_en", { type: "DateTime", description: "Cuándo pasó a ser la foto del documento" }),
    reemplazado_en: t.expose("reemplazado_en", {
      type: "DateTime",
      nullable: true,
      description: "Cuándo otra la reemplazó; null si es la actual",
    }),
    estado: t.field({
      type: PhotoStateEnum,
      description: "La actual, como la solicitud del conductor; las demás, reemplazado",
      resolve: (photo) => photo.estado as PhotoState,
    }),
    motivo_rechazo: t.exposeString("motivo_rechazo", {
      nullable: true,
      description: "Por qué se rechazó la solicitud, si la actual está rechazada",
    }),
    numero_documento: t.exposeString("numero_documento", {
      nullable: true,
      description: "El número del documento (la placa para la foto del vehículo); solo en la foto actual",
    }),
    fecha_vencimiento: t.expose("fecha_vencimiento", {
      type: "DateTime",
      nullable: true,
      description: "Cuándo vence el documento; solo en la foto actual de licencia, SOAT y técnico-mecánica",
    }),
  }),
});

builder.queryFields((t) => ({
  documentHistory: t.field({
    type: [DocumentPhoto],
    description:
      "Todas las fotos que un conductor tuvo para sus documentos, las más recientes primero (el conductor y los administradores)",
    errors: { types: [...RESTRICTED, NotFoundError], dataField: { description: "Las fotos, las más recientes primero" } },
    args: { conductor_id: t.arg.int({ description: "Otro conductor (solo administradores); por defecto quien llama" }) },
    resolve: (_root, args, ctx) => documentHistory(ctx.deps, ctx.actor, args.conductor_id),
  }),
}));
