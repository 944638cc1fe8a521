import { z } from "zod";
import { LICENCE_FIELDS, VEHICLE_FIELDS, type FieldKind } from "../domain/drivers/fields.js";

/**
 * The resources legacy answers carry (spec section 2), as zod schemas: the GraphQL selections the
 * routes run are derived from them, and so are the success bodies of the OpenAPI document.
 */
const int = z.int();
const num = z.number();
const str = z.string();
const when = z.iso.datetime();
const maybe = <T extends z.ZodType>(schema: T) => schema.nullable();

export const LOCATION = z.object({
  id: int, usuario_id: int, direccion: maybe(str), ciudad: maybe(str), departamento: maybe(str), pais: maybe(str),
  latitud: maybe(num), longitud: maybe(num), codigo_postal: maybe(str), es_principal: z.boolean(),
});

export const USER = z.object({
  id: int, uuid: str, nombre: str, apellido: str, email: str, telefono: str,
  tipo_usuario: z.enum(["pasajero", "conductor", "admin", "empresa"]), es_activo: z.boolean(), es_verificado: z.boolean(),
  empresa_id: maybe(int), calificacion: num, creado_en: when, actualizado_en: when, location: maybe(LOCATION),
});

export const PLACE = z.object({ direccion: maybe(str), latitud: num, longitud: num, referencia: maybe(str) });

export const TRIP = z.object({
  id: int, usuario_id: maybe(int), conductor_id: maybe(int), tipo_servicio: z.enum(["motocicleta", "auto", "mototaxi"]),
  estado: z.enum(["pendiente", "aceptado", "en_ruta", "en_curso", "completado", "cancelado"]),
  origen: PLACE, destino: PLACE, precio_estimado: num, precio_final: maybe(num), distancia_km: num, duracion_estimada_minutos: int,
  fecha_solicitud: when, fecha_aceptacion: maybe(when), fecha_inicio: maybe(when), fecha_fin: maybe(when), motivo_cancelacion: maybe(str),
  calificacion_conductor: maybe(int), comentario_conductor: maybe(str), calificacion_usuario: maybe(int), comentario_usuario: maybe(str),
});

const BY_KIND: Record<FieldKind, z.ZodType> = { text: maybe(str), int: maybe(int), id: maybe(int), date: maybe(when), photo: maybe(str) };
const ofKinds = (fields: Record<string, FieldKind>) => z.object(Object.fromEntries(Object.entries(fields).map(([name, kind]) => [name, BY_KIND[kind]])));

export const LICENCE = ofKinds(LICENCE_FIELDS);
export const VEHICLE = ofKinds(VEHICLE_FIELDS);

export const PAGINATION = z.object({ page: int, per_page: int, total: int, total_pages: int });

/** The GraphQL selection of a schema's fields: nested objects (also nullable or in lists) get their own braces. */
export function selection(schema: z.ZodObject): string {
  return Object.entries(schema.shape)
    .map(([name, field]) => {
      const inner = unwrap(field as z.ZodType);
      return inner instanceof z.ZodObject ? `${name} { ${selection(inner)} }` : name;
    })
    .join(" ");
}

function unwrap(schema: z.ZodType): z.ZodType {
  if (schema instanceof z.ZodNullable || schema instanceof z.ZodOptional) return unwrap(schema.unwrap() as z.ZodType);
  if (schema instanceof z.ZodArray) return unwrap(schema.element as z.ZodType);
  return schema;
}
