import { Repeater } from "graphql-yoga";
import type { Trip } from "../../db/models.js";
import { createTrip, fareEstimate } from "../../domain/trips/create.js";
import { driverTrip, getTrip, listTrips, viewTrip } from "../../domain/trips/queries.js";
import { assignedDriverPosition } from "../../domain/drivers/availability.js";
import { rateDriver, ratePassenger } from "../../domain/trips/ratings.js";
import { PAYMENT_METHODS, type PaymentMethod } from "../../domain/money/payment-methods.js";
import { SERVICE_TYPES, type ServiceType } from "../../domain/trips/service-types.js";
import { isFinal, isFurther, TRIP_STATES, type TripState } from "../../domain/trips/states.js";
import { TRIP_RULES } from "../../domain/trips/access.js";
import { assertCanWatchTrip } from "../../domain/trips/watchers.js";
import { acceptTrip, cancelTrip, completeTrip, startRoute, startTrip } from "../../domain/trips/transitions.js";
import { AccountDisabledError, ConflictError, InvalidStateError, NoDriversAvailableError, NotFoundError } from "../../domain/errors.js";
import { PUBLIC } from "../sign-in.js";
import { builder } from "../builder.js";
import { CALLER, DRIVER_AT_WORK, LOOKUP, MAPS, RESTRICTED, RESTRICTED_TRUSTING_LEGACY } from "../errors.js";
import type { Context } from "../context.js";
import { User } from "./accounts.js";
import { Vehicle } from "./drivers.js";
import { PlaceInput, PointRef } from "./maps.js";

const TripStateEnum = builder.enumType("EstadoViaje", { values: TRIP_STATES });
const ServiceTypeEnum = builder.enumType("TipoServicio", { values: SERVICE_TYPES });
const PaymentMethodEnum = builder.enumType("MetodoPago", {
  description: "efectivo: lo cobra el conductor; billetera_digital y tarjeta: los cobra la plataforma",
  values: PAYMENT_METHODS,
});

interface TripPlace {
  direccion: string;
  latitud: number;
  longitud: number;
  referencia: string | null;
}

const TripPlaceRef = builder.objectRef<TripPlace>("LugarViaje").implement({
  fields: (t) => ({
    direccion: t.exposeString("direccion"),
    latitud: t.exposeFloat("latitud"),
    longitud: t.exposeFloat("longitud"),
    referencia: t.exposeString("referencia", { nullable: true }),
  }),
});

const origin = (trip: Trip): TripPlace => ({
  direccion: trip.origen_direccion,
  latitud: trip.origen_latitud,
  longitud: trip.origen_longitud,
  referencia: trip.origen_referencia,
});
const destination = (trip: Trip): TripPlace => ({
  direccion: trip.destino_direccion,
  latitud: trip.destino_latitud,
  longitud: trip.destino_longitud,
  referencia: trip.destino_referencia,
});

export const TripRef = builder.prismaObject("Trip", {
  name: "Viaje",
  fields: (t) => ({
    id: t.exposeInt("id"),
    usuario_id: t.exposeInt("usuario_id", { nullable: true, description: "El pasajero (una cuenta eliminada conserva su id aquí)" }),
    conductor_id: t.exposeInt("conductor_id", { nullable: true }),
    tipo_servicio: t.field({ type: ServiceTypeEnum, resolve: (trip) => trip.tipo_servicio as ServiceType }),
    estado: t.field({ type: TripStateEnum, resolve: (trip) => trip.estado as TripState }),
    origen: t.field({ type: TripPlaceRef, resolve: origin }),
    destino: t.field({ type: TripPlaceRef, resolve: destination }),
    precio_estimado: t.exposeInt("precio_estimado", { description: "COP" }),
    multiplicador_demanda: t.exposeFloat("multiplicador_demanda"),
    metodo_pago: t.field({ type: PaymentMethodEnum, resolve: (trip) => trip.metodo_pago as PaymentMethod }),
    precio_final: t.exposeInt("precio_final", { nullable: true, description: "COP" }),
    ganancia_conductor: t.int({
      nullable: true,
      description:
        "Lo que gana el conductor con el viaje completado, en COP (precio final menos comisiones); solo para él y los administradores",
      resolve: (trip, _args, ctx) => (TRIP_RULES.driverRecord.allows(ctx.actor, trip) ? trip.ganancia_conductor : null),
    }),
    distancia_km: t.exposeFloat("distancia_km"),
    duracion_estimada_minutos: t.exposeInt("duracion_estimada_minutos"),
    fecha_solicitud: t.expose("fecha_solicitud", { type: "DateTime" }),
    fecha_aceptacion: t.expose("fecha_aceptacion", { type: "DateTime", nullable: true }),
    fecha_en_ruta: t.expose("fecha_en_ruta", { type: "DateTime", nullable: true }),
    fecha_inicio: t.expose("fecha_inicio", { type: "DateTime", nullable: true }),
    fecha_fin: t.expose("fecha_fin", { type: "DateTime", nullable: true }),
    fecha_cancelacion: t.expose("fecha_cancelacion", { type: "DateTime", nullable: true }),
    motivo_cancelacion: t.exposeString("motivo_cancelacion", { nullable: true }),
    cancelado_por: t.exposeString("cancelado_por", { nullable: true }),
    calificacion_conductor: t.exposeInt("calificacion_conductor", { nullable: true }),
    comentario_conductor: t.exposeString("comentario_conductor", { nullable: true }),
    calificacion_usuario: t.exposeInt("calificacion_usuario", { nullable: true }),
    comentario_usuario: t.exposeString("comentario_usuario", { nullable: true }),
    // Who is on a trip is for its parties and administrators; a driver looking at an open request
    // sees the trip, not the passenger's account.
    pasajero: t.field({
      type: User,
      nullable: true,
      select: (_args, _ctx, nested) => ({ usuario: nested() }),
      resolve: (trip, _args, ctx) => (TRIP_RULES.follow.allows(ctx.actor, trip) ? trip.usuario : null),
    }),
    conductor: t.field({
      type: User,
      nullable: true,
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

const TripRole = builder.enumType("RolViaje", { values: ["pasajero", "conductor"] as const });
const TripScope = builder.enumType("AlcanceViajes", {
  values: { activos: { description: "pendiente, aceptado, en_ruta, en_curso" }, historial: { description: "completado, cancelado" } },
});

const TripInput = builder.inputType("CreateTripInput", {
  fields: (t) => ({
    tipo_servicio: t.string({ description: "motocicleta, auto o mototaxi" }),
    tipo_vehiculo: t.string({ description: "moto, auto o mototaxi: otra forma de pedir el servicio" }),
    metodo_pago: t.string({ description: "efectivo (si no se envía), billetera_digital o tarjeta" }),
    origen: t.field({ type: PlaceInput, required: true }),
    destino: t.field({ type: PlaceInput, required: true }),
  }),
});

const RatingInput = builder.inputType("RatingInput", {
  fields: (t) => ({
    trip_id: t.int({ required: true }),
    calificacion: t.int({ required: true, description: "Entero de 1 a 5" }),
    comentario: t.string(),
  }),
});

interface FareView {
  tipo_servicio: string;
  precio_estimado: number;
  tarifa_base: number;
  por_distancia: number;
  por_tiempo: number;
  recargo: string | null;
  porcentaje_recargo: number;
  tarifa_minima: number;
  multiplicador_demanda: number;
  distancia_km: number;
  duracion_estimada_minutos: number;
  conductores_disponibles: number;
}

const FareRef = builder.objectRef<FareView>("EstimacionTarifa").implement({
  description: "Precio de un viaje pedido ahora, en COP, con su desglose",
  fields: (t) => ({
    tipo_servicio: t.field({ type: ServiceTypeEnum, resolve: (f) => f.tipo_servicio as ServiceType }),
    precio_estimado: t.exposeFloat("precio_estimado"),
    tarifa_base: t.exposeFloat("tarifa_base"),
    por_distancia: t.exposeFloat("por_distancia"),
    por_tiempo: t.exposeFloat("por_tiempo"),
    recargo: t.exposeString("recargo", { nullable: true, description: "pico, nocturno o ninguno" }),
    porcentaje_recargo: t.exposeFloat("porcentaje_recargo"),
    tarifa_minima: t.exposeFloat("tarifa_minima"),
    multiplicador_demanda: t.exposeFloat("multiplicador_demanda"),
    distancia_km: t.exposeFloat("distancia_km"),
    duracion_estimada_minutos: t.exposeInt("duracion_estimada_minutos"),
    conductores_disponibles: t.exposeInt("conductores_disponibles"),
  }),
});

const tripId = builder.args((t) => ({ trip_id: t.int({ required: true }) }));

/** A later step of a trip, whose rule also trusts legacy calls naming nobody: start, complete, cancel, rate. */
const TRIP_STEP = [...RESTRICTED_TRUSTING_LEGACY, ...LOOKUP, InvalidStateError];

builder.queryFields((t) => ({
  trip: t.prismaField({
    type: TripRef,
    errors: { types: [...RESTRICTED_TRUSTING_LEGACY, ...LOOKUP] },
    args: tripId,
    resolve: (query, _root, args, ctx) => viewTrip(ctx.deps, ctx.actor, args.trip_id, query),
  }),
  driverTrip: t.prismaField({
    type: TripRef,
    description: "Un viaje del conductor que llama, con su detalle (cualquiera, para un administrador)",
    errors: { types: [...RESTRICTED, ...LOOKUP] },
    args: { trip_id: t.arg.int({ required: true, description: "El viaje" }) },
    resolve: (query, _root, args, ctx) => driverTrip(ctx.deps, ctx.actor, args.trip_id, query),
  }),
  myTrips: t.prismaField({
    type: [TripRef],
    description: "Los viajes de quien llama, como pasajero o como conductor, los más recientes primero",
    errors: { types: [...CALLER, NotFoundError] },
    args: { rol: t.arg({ type: TripRole, required: true }), alcance: t.arg({ type: TripScope, required: true }) },
    resolve: (query, _root, args, ctx) => listTrips(ctx.deps, ctx.actor, args.rol, args.alcance, query),
  }),
  fareEstimate: t.field({
    ...PUBLIC,
    type: FareRef,
    errors: { types: MAPS },
    args: { input: t.arg({ type: TripInput, required: true }) },
    resolve: (_root, { input }, ctx) => fareEstimate(ctx.deps, input),
  }),
}));

builder.mutationFields((t) => ({
  createTrip: t.field({
    type: TripRef,
    description: "Quien llama pide un viaje; solo se crea si hay un conductor disponible a 5 km o menos",
    errors: { types: [...CALLER, ...LOOKUP, ...MAPS, AccountDisabledError, NoDriversAvailableError, ConflictError] },
    args: { input: t.arg({ type: TripInput, required: true }) },
    resolve: (_root, { input }, ctx) => createTrip(ctx.deps, ctx.actor, input),
  }),
  acceptTrip: t.field({
    type: TripRef,
    description: "Quien llama (conductor) toma el viaje",
    errors: { types: [...CALLER, ...LOOKUP, ...DRIVER_AT_WORK, InvalidStateError, ConflictError] },
    args: tripId,
    resolve: (_root, args, ctx) => acceptTrip(ctx.deps, ctx.actor, args.trip_id),
  }),
  startRoute: t.field({
    type: TripRef,
    description: "El conductor asignado sale hacia el punto de recogida (en_ruta)",
    errors: { types: [...RESTRICTED, ...LOOKUP, InvalidStateError] },
    args: tripId,
    resolve: (_root, args, ctx) => startRoute(ctx.deps, ctx.actor, args.trip_id),
  }),
  startTrip: t.field({
    type: TripRef,
    description: "El pasajero subió (en_curso)",
    errors: { types: TRIP_STEP },
    args: tripId,
    resolve: (_root, args, ctx) => startTrip(ctx.deps, ctx.actor, args.trip_id),
  }),
  completeTrip: t.field({
    type: TripRef,
    errors: { types: TRIP_STEP },
    args: {
      trip_id: t.arg.int({ required: true }),
      precio_final: t.arg.float({ required: true, description: "COP; se redondea a pesos enteros" }),
      distancia_real: t.arg.float({ description: "km; reemplaza la distancia estimada" }),
    },
    resolve: (_root, args, ctx) => completeTrip(ctx.deps, ctx.actor, args),
  }),
  cancelTrip: t.field({
    type: TripRef,
    errors: { types: TRIP_STEP },
    args: { trip_id: t.arg.int({ required: true }), motivo: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => cancelTrip(ctx.deps, ctx.actor, args),
  }),
  rateDriver: t.field({
    type: TripRef,
    description: "El pasajero califica al conductor de un viaje completado",
    errors: { types: TRIP_STEP },
    args: { input: t.arg({ type: RatingInput, required: true }) },
    resolve: (_root, { input }, ctx) => rateDriver(ctx.deps, ctx.actor, input),
  }),
  ratePassenger: t.field({
    type: TripRef,
    description: "El conductor califica al pasajero de un viaje completado",
    errors: { types: TRIP_STEP },
    args: { input: t.arg({ type: RatingInput, required: true }) },
    resolve: (_root, { input }, ctx) => ratePassenger(ctx.deps, ctx.actor, input),
  }),
}));

/**
 * Follows a trip until it is final, handing `each` every change, the final one included, or only
 * the trip as it is when it is final already; ends sooner when `until` settles (the subscriber
 * left). The trip is read once listening has started (a Repeater listens from its first next()),
 * so that a change made since the subscriber was checked is not lost.
 */
export async function followTrip(
  ctx: Context,
  tripId: number,
  until: PromiseLike<unknown>,
  each: (trip: Trip) => unknown = () => undefined,
) {
  const changes = ctx.pubsub.subscribe("viaje", tripId);
  void until.then(() => changes.return());
  try {
    const first = changes.next();
    const current = await getTrip(ctx.deps, tripId);
    if (isFinal(current.estado)) {
      await each(current);
      return;
    }
    // A state seen already is dropped: the same change may come twice, from its event and from a catch-up (catch-up.ts).
    let last: string | null = null;
    for (let step = await first; !step.done; step = await changes.next()) {
      if (last !== null && !isFurther(step.value.estado, last)) continue;
      last = step.value.estado;
      await each(step.value);
      if (isFinal(step.value.estado)) return;
    }
  } finally {
    await changes.return();
  }
}

builder.subscriptionFields((t) => ({
  tripUpdated: t.field({
    type: TripRef,
    description:
      "El viaje completo en cada cambio, para su pasajero, su conductor o un administrador; termina tras enviar su estado final " +
      "(completado o cancelado). Un viaje que ya terminó se envía una vez y la suscripción termina",
    args: tripId,
    subscribe: async (_root, args, ctx) => {
      const trip = await assertCanWatchTrip(ctx.deps, ctx.actor, args.trip_id);
      // Everything is opened inside: a Repeater returned before its first next() never runs, and leaves nothing open.
      return new Repeater<Trip>(async (push, stop) => {
        await followTrip(ctx, trip.id, stop, push);
        stop();
      });
    },
    resolve: (trip) => trip,
  }),
}));
