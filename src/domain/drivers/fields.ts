/**
 * The licence and vehicle fields, defined once: the domain schemas, the GraphQL types, the
 * legacy calls and the approval checklist are all derived from these lists. A kind says how a
 * field travels: text, a whole number, an id, a date (ISO 8601) or a photo (an upload link).
 */
export type FieldKind = "text" | "int" | "id" | "date" | "photo";

export const LICENCE_FIELDS = {
  numero: "text",
  tipo: "text",
  fecha_emision: "date",
  fecha_expiracion: "date",
  imagen_frente: "photo",
  imagen_reverso: "photo",
} as const satisfies Record<string, FieldKind>;

export const VEHICLE_FIELDS = {
  marca: "text",
  modelo: "text",
  anio: "int",
  placa: "text",
  color: "text",
  capacidad_pasajeros: "int",
  tipo: "text",
  empresa_id: "id",
  soat_numero: "text",
  soat_vencimiento: "date",
  tecnomecanica_numero: "text",
  tecnomecanica_vencimiento: "date",
  tarjeta_propiedad_numero: "text",
  foto_vehiculo: "photo",
  foto_tarjeta_propiedad: "photo",
  foto_soat: "photo",
  foto_tecnomecanica: "photo",
} as const satisfies Record<string, FieldKind>;

export type LicenceField = keyof typeof LICENCE_FIELDS;
export type VehicleField = keyof typeof VEHICLE_FIELDS;

/** Vehicle fields an application may leave empty: the rest are needed for review (spec 2.7). */
export const VEHICLE_OPTIONAL_FOR_APPROVAL: readonly VehicleField[] = ["capacidad_pasajeros", "empresa_id"];

export const fieldsOfKind = <F extends Record<string, FieldKind>>(fields: F, kind: FieldKind) =>
  (Object.keys(fields) as (keyof F & string)[]).filter((name) => fields[name] === kind);
