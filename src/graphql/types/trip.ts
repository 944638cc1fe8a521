import type { Trip } from "../../db/models.js";
import { firstName } from "../../domain/accounts/names.js";
import { assignedDriverPosition } from "../../domain/trips/driver-position.js";
import type { PaymentMethod } from "../../domain/payment-methods.js";
import type { ServiceType } from "../../domain/service-types.js";
import type { TripState } from "../../domain/trip-states.js";
import { TRIP_RULES } from "../../domain/trips/access.js";
import { tripHistory } from "../../domain/trips/history.js";
import { tripChanges } from "../../domain/trips/changes.js";
import { builder } from "../builder.js";
import type { Context } from "../context.js";
import { User } from "./accounts.js";
import { Vehicle } from "./drivers.js";
import { PointRef } from "./maps.js";
import { describedEnum } from "./enums.js";

/** A trip (Viaje) as GraphQL shows it, its places and the words that describe it; the operations on trips are in trips.ts. */

export const TripStateEnum = describedEnum("EstadoViaje", "Dónde está un viaje", {
  pendiente: "Pedido; se busca conductor",
  aceptado: "Un conductor lo tomó",
  en_ruta: "El conductor va hacia el punto de recogida",
  en_curso: "El pasajero va a bordo",
  completado: "Terminado y cobrado",
  cancelado: "Cancelado antes de terminar",
} satisfies Record<TripState, string>);

export const ServiceTypeEnum = describedEnum("TipoServicio", "Un servicio que un pasajero puede pedir", {
  motocicleta: "Mototaxi en motocicleta (vehículos moto)",
  auto: "Automóvil (vehículos auto)",
  mototaxi: "Mototaxi de tres ruedas con cabina (vehículos mototaxi)",
} satisfies Record<ServiceType, string>);

export const PaymentMethodEnum = describedEnum("MetodoPago", "Cómo se paga un viaje", {
  efectivo: "En efectivo: lo cobra el conductor",
  billetera_digital: "Con billetera digital: lo cobra la plataforma",
  tarjeta: "Con tarjeta: lo cobra la plataforma",
} satisfies Record<PaymentMethod, string>);

interface TripPlace {
  direccion: string;
  latitud: number;
  longitud: number;
  referencia: string | null;
}

export const TripPlaceRef = builder.objectRef<TripPlace>("LugarViaje").implement({
  description: "El origen o el destino de un viaje",
  fields: (t) => ({
    direccion: t.exposeString("direccion", { description: "La dirección" }),
    latitud: t.exposeFloat("latitud", { description: "Latitud (grados)" }),
    longitud: t.exposeFloat("longitud", { description: "Longitud (grados)" }),
    referencia: t.exposeString("referencia", { nullable: true, description: "Punto de referencia o indicaciones" }),
  }),
});

/** A trip's or a reservation's places, as stored: the same columns on both. */
type Places = Pick<
  Trip,
  | "origen_direccion"
  | "origen_latitud"
  | "origen_longitud"
  | "origen_referencia"
  | "destino_direccion"
  | "destino_latitud"
  | "destino_longitud"
  | "destino_referencia"
>;

export const origin = (trip: Places): TripPlace => ({
  direccion: trip.origen_direccion,
  latitud: trip.origen_latitud,
  longitud: trip.origen_longitud,
  referencia: trip.origen_referencia,
});
export const destination = (trip: Places): TripPlace => ({
  direccion: trip.destino_direccion,
  latitud: trip.destino_latitud,
  longitud: trip.destino_longitud,
  referencia: trip.destino_referencia,
});

/** A part of where the fare went, for administrators; null for anyone else. */
const splitPart =
  (part: "comision_plataforma" | "comision_metodo_pago" | "porcentaje_comision" | "porcentaje_comision_metodo") =>
  (trip: Trip, _args: unknown, ctx: Context) =>
    TRIP_RULES.fareSplit.allows(ctx.actor, trip) ? trip[part] : null;

const TripEventRef = builder.prismaObject("TripEvent", {
  name: "EventoViaje",
  description: "Algo que pasó en un viaje además de sus estados: un PIN intentado, un inicio confirmado por el pasajero, …",
  fields: (t) => ({
    id: t.exposeInt("id", { description: "El evento" }),
    tipo: t.exposeString("tipo", {
      description: "pin_correcto, pin_incorrecto, inicio_bloqueado (tras 5 PIN incorrectos) o inicio_confirmado (por el pasajero)",
    }),
    actor_id: t.exposeInt("actor_id", { nullable: true, description: "Quién lo hizo; null para una llamada heredada sin id" }),
    detalles: t.exposeString("detalles", { nullable: true, description: "Sus detalles, en JSON (el número de intento de un PIN)" }),
    creado_en: t.expose("creado_en", { type: "DateTime", description: "Cuándo" }),
  }),
});

export const TripChangeRef = builder.prismaObject("TripChange", {
  name: "CambioViaje",
  description: "Un cambio de destino o de paradas que el pasajero pidió durante el viaje, y lo que respondió el conductor",
  fields: (t) => ({
    id: t.exposeInt("id", { description: "El cambio" }),
    viaje_id: t.exposeInt("viaje_id", { description: "El viaje" }),
    solicitado_por: t.exposeInt("solicitado_por", { description: "Quién lo pidió" }),
    estado: t.exposeString("estado", { description: "pendiente, aceptado, rechazado o vencido (nadie respondió a tiempo)" }),
    destino: t.field({
      type: TripPlaceRef,
      description: "El destino con el cambio",
      resolve: (change) => ({
        direccion: change.destino_direccion,
        latitud: change.destino_latitud,
        longitud: change.destino_longitud,
        referencia: change.destino_referencia,
      }),
    }),
    paradas: t.field({
      type: [TripPlaceRef],
      description: "Las paradas por venir con el cambio, en orden",
      resolve: (change) => JSON.parse(change.paradas),
    }),
    precio_antes: t.exposeInt("precio_antes", { description: "COP antes del cambio" }),
    precio_despues: t.exposeInt("precio_despues", { description: "COP con el cambio: lo más que se cobra si se acepta" }),
    creado_en: t.expose("creado_en", { type: "DateTime", description: "Cuándo se pidió" }),
    vence_en: t.expose("vence_en", { type: "DateTime", description: "Hasta cuándo espera la respuesta del conductor" }),
    respondido_en: t.expose("respondido_en", { type: "DateTime", nullable: true, description: "Cuándo respondió el conductor" }),
  }),
});

const TripStopRef = builder.prismaObject("TripStop", {
  name: "ParadaViaje",
  description: "Una parada en el camino de un viaje, y cuándo llegó y salió de ella el conductor",
  fields: (t) => ({
    orden: t.exposeInt("orden", { description: "1 la primera" }),
    direccion: t.exposeString("direccion", { description: "La dirección" }),
    latitud: t.exposeFloat("latitud", { description: "Latitud" }),
    longitud: t.exposeFloat("longitud", { description: "Longitud" }),
    referencia: t.exposeString("referencia", { nullable: true, description: "Un punto de referencia" }),
    llegada_en: t.expose("llegada_en", { type: "DateTime", nullable: true, description: "Cuándo llegó el conductor" }),
    salida_en: t.expose("salida_en", { type: "DateTime", nullable: true, description: "Cuándo salió" }),
  }),
});

export const TripRef = builder.prismaObject("Trip", {
  name: "Viaje",
  description: "Un viaje, desde que se pide hasta que termina",
  fields: (t) => ({
    id: t.exposeInt("id", { description: "El viaje" }),
    usuario_id: t.exposeInt("usuario_id", { nullable: true, description: "El pasajero (una cuenta eliminada conserva su id aquí)" }),
    conductor_id: t.exposeInt("conductor_id", { nullable: true, description: "El conductor asignado, si lo hay" }),
    tipo_servicio: t.field({
      type: ServiceTypeEnum,
      description: "El servicio pedido",
      resolve: (trip) => trip.tipo_servicio as ServiceType,
    }),
    estado: t.field({ type: TripStateEnum, description: "Dónde está", resolve: (trip) => trip.estado as TripState }),
    origen: t.field({ type: TripPlaceRef, description: "Dónde recoger al pasajero", resolve: origin }),
    destino: t.field({ type: TripPlaceRef, description: "A dónde va", resolve: destination }),
    paradas: t.relation("paradas", {
      type: TripStopRef,
      description: "Las paradas en el camino, en orden",
      query: { orderBy: { orden: "asc" } },
    }),
    precio_estimado: t.exposeInt("precio_estimado", { description: "COP" }),
    multiplicador_demanda: t.exposeFloat("multiplicador_demanda", { description: "El recargo por demanda al pedirlo, de 1.0 a 2.0" }),
    precio_cotizado: t.exposeInt("precio_cotizado", {
      nullable: true,
      description: "COP: el precio de la cotización con que se pidió, lo más que se cobra; null si se pidió sin cotización",
    }),
    metodo_pago: t.field({ type: PaymentMethodEnum, description: "Cómo se paga", resolve: (trip) => trip.metodo_pago as PaymentMethod }),
    pin_inicio: t.string({
      nullable: true,
      description:
        "Los 4 dígitos que el pasajero dice al conductor para iniciar el viaje, desde que lo aceptan; solo para el pasajero. Se piden si activó verificar_pin",
      resolve: (trip, _args, ctx) => (TRIP_RULES.startPin.allows(ctx.actor, trip) ? trip.pin_inicio : null),
    }),
    inicio_confirmado_en: t.expose("inicio_confirmado_en", {
      type: "DateTime",
      nullable: true,
      description: "Cuándo el pasajero confirmó el inicio en su app (el conductor lo inicia entonces sin PIN)",
    }),
    cambios: t.field({
      type: [TripChangeRef],
      nullable: true,
      description:
        "Los cambios de destino o de paradas pedidos durante el viaje, el más reciente primero; para el pasajero, el conductor y los administradores",
      resolve: (trip, _args, ctx) => tripChanges(ctx.deps, ctx.actor, trip),
    }),
    historial: t.field({
      type: [TripEventRef],
      nullable: true,
      description:
        "Lo que pasó en el viaje además de sus estados, lo más antiguo primero; para el pasajero, el conductor y los administradores",
      resolve: (trip, _args, ctx) => tripHistory(ctx.deps, ctx.actor, trip),
    }),
    precio_final: t.exposeInt("precio_final", { nullable: true, description: "COP" }),
    ganancia_conductor: t.int({
      nullable: true,
      description:
        "Lo que gana el conductor con el viaje completado, en COP (precio final menos comisiones); solo para él y los administradores",
      resolve: (trip, _args, ctx) => (TRIP_RULES.driverRecord.allows(ctx.actor, trip) ? trip.ganancia_conductor : null),
    }),
    // The rest of the split, for the console's trip dialog: never for passengers or drivers.
    comision_plataforma: t.int({
      nullable: true,
      description: "La comisión de la plataforma sobre el precio final, en COP, una vez completado; solo para administradores",
      resolve: splitPart("comision_plataforma"),
    }),
    comision_metodo_pago: t.int({
      nullable: true,
      description: "La comisión por el método de pago (si lo cobra la plataforma), en COP, una vez completado; solo para administradores",
      resolve: splitPart("comision_metodo_pago"),
    }),
    porcentaje_comision: t.float({
      nullable: true,
      description: "El % de comisión de la plataforma con que se pidió el viaje; solo para administradores",
      resolve: splitPart("porcentaje_comision"),
    }),
    porcentaje_comision_metodo: t.float({
      nullable: true,
      description: "El % de comisión por el método de pago con que se pidió (0 en efectivo); solo para administradores",
      resolve: splitPart("porcentaje_comision_metodo"),
    }),
    distancia_km: t.exposeFloat("distancia_km", { description: "km por carretera; la real, una vez completado si el conductor la dio" }),
    duracion_estimada_minutos: t.exposeInt("duracion_estimada_minutos", { description: "Minutos estimados de recorrido" }),
    fecha_solicitud: t.expose("fecha_solicitud", { type: "DateTime", description: "Cuándo se pidió" }),
    fecha_aceptacion: t.expose("fecha_aceptacion", { type: "DateTime", nullable: true, description: "Cuándo lo tomó el conductor" }),
    fecha_en_ruta: t.expose("fecha_en_ruta", { type: "DateTime", nullable: true, description: "Cuándo salió el conductor a recoger" }),
    fecha_inicio: t.expose("fecha_inicio", { type: "DateTime", nullable: true, description: "Cuándo subió el pasajero" }),
    fecha_fin: t.expose("fecha_fin", { type: "DateTime", nullable: true, description: "Cuándo se completó" }),
    fecha_cancelacion: t.expose("fecha_cancelacion", { type: "DateTime", nullable: true, description: "Cuándo se canceló" }),
    motivo_cancelacion: t.exposeString("motivo_cancelacion", { nullable: true, description: "Por qué se canceló" }),
    cancelado_por: t.exposeString("cancelado_por", { nullable: true, description: "Quién lo canceló: pasajero, conductor o admin" }),
    calificacion_conductor: t.exposeInt("calificacion_conductor", {
      nullable: true,
      description: "La que el pasajero dio al conductor, 1 a 5",
    }),
    comentario_conductor: t.exposeString("comentario_conductor", {
      nullable: true,
      description: "El comentario del pasajero sobre el conductor",
    }),
    calificacion_usuario: t.exposeInt("calificacion_usuario", {
      nullable: true,
      description: "La que el conductor dio al pasajero, 1 a 5",
    }),
    comentario_usuario: t.exposeString("comentario_usuario", {
      nullable: true,
      description: "El comentario del conductor sobre el pasajero",
    }),
    // Who is on a trip is for its parties and administrators; a driver looking at an open request
    // sees the trip, not the passenger's account.
    pasajero: t.field({
      type: User,
      nullable: true,
      description: "El pasajero, para las partes del viaje y los administradores",
      select: (_args, _ctx, nested) => ({ usuario: nested() }),
      resolve: (trip, _args, ctx) => (TRIP_RULES.follow.allows(ctx.actor, trip) ? trip.usuario : null),
    }),
    pasajero_nombre: t.string({
      nullable: true,
      description:
        "El primer nombre del pasajero: lo que ve de él quien puede ver el viaje, como el conductor al que se ofrece; nada más de su cuenta",
      select: { usuario: { select: { nombre: true } } },
      resolve: (trip) => firstName(trip.usuario?.nombre),
    }),
    conductor: t.field({
      type: User,
      nullable: true,
      description: "El conductor asignado, para las partes del viaje y los administradores",
      select: (_args, _ctx, nested) => ({ conductor: nested() }),
      resolve: (trip, _args, ctx) => (TRIP_RULES.follow.allows(ctx.actor, trip) ? trip.conductor : null),
    }),
    vehiculo: t.field({
      type: Vehicle,
      nullable: true,
      description: "El vehículo del conductor asignado, para quien espera el viaje",
      select: (_args, _ctx, nested) => ({ conductor: { select: { perfil_conductor: { select: { vehiculo: nested() } } } } }),
      resolve: (trip, _args, ctx) =>
        TRIP_RULES.follow.allows(ctx.actor, trip) ? (trip.conductor?.perfil_conductor?.vehiculo ?? null) : null,
    }),
    ubicacion_conductor: t.field({
      type: PointRef,
      nullable: true,
      description:
        "Dónde está el conductor asignado mientras atiende el viaje (aceptado, en_ruta, en_curso), para el pasajero, " +
        "el conductor y los administradores",
      resolve: (trip, _args, ctx) => assignedDriverPosition(ctx.deps, ctx.actor, trip),
    }),
    conductores_avisados: t.int({
      description: "Cuántos conductores recibieron la solicitud",
      resolve: (trip, _args, ctx) => ctx.deps.db.tripOffer.count({ where: { viaje_id: trip.id } }),
    }),
  }),
});

export const TripRole = describedEnum("RolViaje", "Cómo tomó parte alguien en un viaje", {
  pasajero: "Lo pidió",
  conductor: "Lo condujo",
});
