import { z } from "zod";
import { USER_TYPES } from "../domain/user-types.js";
import { LICENCE_FIELDS, VEHICLE_FIELDS, type FieldKind } from "../domain/drivers/fields.js";
import { PAYMENT_METHODS } from "../domain/payment-methods.js";
import { SERVICE_TYPES } from "../domain/service-types.js";
import { TRIP_STATES } from "../domain/trip-states.js";

/**
 * The resources legacy answers carry (docs/legacy-api.md), as zod schemas: the GraphQL selections the
 * routes run are derived from them, and so are the success bodies of the OpenAPI document.
 */
const int = z.int();
const num = z.number();
const str = z.string();
const when = z.iso.datetime();
const maybe = <T extends z.ZodType>(schema: T) => schema.nullable();

export const LOCATION = z.object({
  id: int,
  usuario_id: int,
  direccion: maybe(str),
  ciudad: maybe(str),
  departamento: maybe(str),
  pais: maybe(str),
  latitud: maybe(num),
  longitud: maybe(num),
  codigo_postal: maybe(str),
  es_principal: z.boolean(),
});

export const USER = z.object({
  id: int,
  uuid: str,
  nombre: str,
  apellido: str,
  email: str,
  telefono: str,
  tipo_usuario: z.enum(USER_TYPES),
  es_activo: z.boolean(),
  es_verificado: z.boolean(),
  empresa_id: maybe(int),
  calificacion: num,
  creado_en: when,
  actualizado_en: when,
  location: maybe(LOCATION),
});

const PLACE = z.object({ direccion: maybe(str), latitud: num, longitud: num, referencia: maybe(str) });

export const TRIP = z.object({
  id: int,
  usuario_id: maybe(int),
  conductor_id: maybe(int),
  tipo_servicio: z.enum(SERVICE_TYPES),
  estado: z.enum(TRIP_STATES),
  origen: PLACE,
  destino: PLACE,
  precio_estimado: int,
  metodo_pago: z.enum(PAYMENT_METHODS),
  // For the trip's passenger alone (null for anyone else): what they tell the driver to start.
  pin_inicio: maybe(str),
  precio_final: maybe(int),
  distancia_km: num,
  duracion_estimada_minutos: int,
  fecha_solicitud: when,
  fecha_aceptacion: maybe(when),
  fecha_inicio: maybe(when),
  fecha_fin: maybe(when),
  motivo_cancelacion: maybe(str),
  calificacion_conductor: maybe(int),
  comentario_conductor: maybe(str),
  calificacion_usuario: maybe(int),
  comentario_usuario: maybe(str),
});

const BY_KIND: Record<FieldKind, z.ZodType> = { text: maybe(str), int: maybe(int), id: maybe(int), date: maybe(when), photo: maybe(str) };
const ofKinds = (fields: Record<string, FieldKind>) =>
  z.object(Object.fromEntries(Object.entries(fields).map(([name, kind]) => [name, BY_KIND[kind]])));

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

/** A driver's position and availability, as the location and availability calls answer them. */
export const DRIVER_STATE = z.object({
  conductor_id: int,
  latitud: maybe(num),
  longitud: maybe(num),
  disponibilidad: int,
  posicion_en: maybe(when),
  viaje_activo_id: maybe(int),
});

/** A pending trip as the driver app's request screens read it: flat coordinates and addresses. */
export const REQUEST = z.object({
  id: int,
  usuario_id: maybe(int),
  cliente_nombre: maybe(str),
  tipo_servicio: TRIP.shape.tipo_servicio,
  estado: TRIP.shape.estado,
  latitud_origen: num,
  longitud_origen: num,
  direccion_origen: maybe(str),
  latitud_destino: num,
  longitud_destino: num,
  direccion_destino: maybe(str),
  distancia_km: num,
  duracion_minutos: int,
  precio_estimado: num,
  metodo_pago: TRIP.shape.metodo_pago,
  fecha_solicitud: when,
});

export const EARNINGS = z.object({
  periodo: str,
  total_viajes: int,
  ganancia_total: num,
  ganancia_promedio: num,
  fecha_inicio: when,
  fecha_fin: when,
  desglose_diario: z.array(z.object({ fecha: str, ganancias: int, viajes: int })),
});

export const STATISTICS = z.object({
  total_viajes: int,
  viajes_hoy: int,
  viajes_semana: int,
  viajes_mes: int,
  calificacion_promedio: num,
  total_calificaciones: int,
  tasa_aceptacion: num,
  tasa_completacion: num,
  tasa_cancelacion: num,
  tiempo_promedio_respuesta: num,
  distancia_total_km: num,
  horas_activo: num,
  horas_hoy: num,
  ganancias_hoy: num,
});

/** An entry of the pending-drivers list (docs/legacy-api.md). */
export const PENDING_DRIVER = z.object({
  id: int,
  nombre_completo: maybe(str),
  email: str,
  telefono: maybe(str),
  fecha_solicitud: maybe(when),
  aprobado: z.boolean(),
  licencia: maybe(LICENCE.pick({ numero: true, tipo: true, fecha_expiracion: true })),
  vehiculo: maybe(VEHICLE.pick({ marca: true, modelo: true, placa: true, tipo: true })),
});

/** A route (docs/legacy-api.md). */
export const ROUTE = z.object({
  origen: PLACE.omit({ referencia: true }),
  destino: PLACE.omit({ referencia: true }),
  distancia_km: num,
  duracion_minutos: int,
  puntos: z.array(z.object({ latitud: num, longitud: num })),
  instrucciones: maybe(str),
});

/** What geocoding finds for an address or coordinates. */
export const FOUND_PLACE = z.object({
  latitud: num,
  longitud: num,
  direccion: str,
  ciudad: maybe(str),
  departamento: maybe(str),
  pais: maybe(str),
});

/** A driver's money, as get_saldo.php answers it. */
export const BALANCE = z.object({ disponible: int, en_retiro: int, deuda: int, total_retirado: int });

/** Where a driver is paid; the number is masked for everyone but its owner and administrators. */
export const PAYOUT_ACCOUNT = z.object({
  id: int,
  tipo: str,
  numero: maybe(str),
  banco: maybe(str),
  tipo_cuenta: maybe(str),
  titular_nombre: maybe(str),
  titular_tipo_documento: maybe(str),
  titular_documento: maybe(str),
  descripcion: str,
  verificada: z.boolean(),
  creado_en: when,
});

export const PAYOUT = z.object({
  id: int,
  conductor_id: int,
  monto: int,
  estado: str,
  motivo: maybe(str),
  referencia_pago: maybe(str),
  solicitado_en: when,
  aprobado_en: maybe(when),
  cerrado_en: maybe(when),
  cuenta: PAYOUT_ACCOUNT,
});

export const MOVEMENT = z.object({
  id: int,
  fecha: when,
  tipo: str,
  concepto: str,
  monto: int,
  descripcion: str,
  viaje_id: maybe(int),
});

/** A saved place, as lugares_favoritos.php lists it. */
export const SAVED_PLACE = z.object({
  id: int,
  tipo: z.enum(["casa", "trabajo", "favorito"]),
  nombre: str,
  direccion: str,
  latitud: num,
  longitud: num,
  referencia: maybe(str),
});

/** A quote, as calculate_quote.php answers it: the price it holds until vence_en, and what it is made of (pesos). */
export const QUOTE = z.object({
  cotizacion_id: str,
  precio_estimado: int,
  vence_en: when,
  tipo_servicio: z.enum(SERVICE_TYPES),
  fecha_programada: maybe(when),
  distancia_km: num,
  duracion_estimada_minutos: int,
  desglose: z.object({ tarifa_base: int, distancia: int, tiempo: int, recargo: int, multiplicador_demanda: num }),
});

/** An emergency contact, as contactos_emergencia.php lists it. */
export const EMERGENCY_CONTACT = z.object({ id: int, nombre: str, telefono: maybe(str), email: maybe(str) });
