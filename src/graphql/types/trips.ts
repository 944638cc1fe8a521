import { Repeater } from "graphql-yoga";
import type { Trip } from "../../db/models.js";
import { firstName } from "../../domain/accounts/names.js";
import { createTrip, fareEstimate } from "../../domain/trips/create.js";
import { driverTrip, getTrip, listTrips, viewTrip } from "../../domain/trips/queries.js";
import { assignedDriverPosition } from "../../domain/trips/driver-position.js";
import { rateDriver, ratePassenger } from "../../domain/trips/ratings.js";
import type { PaymentMethod } from "../../domain/payment-methods.js";
import type { ServiceType } from "../../domain/service-types.js";
import { isFinal, isFurther, type TripState } from "../../domain/trip-states.js";
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
import { describedEnum, VehicleTypeEnum } from "./enums.js";

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

export const origin = (trip: Trip): TripPlace => ({
  direccion: trip.origen_direccion,
  latitud: trip.origen_latitud,
  longitud: trip.origen_longitud,
  referencia: trip.origen_referencia,
});
export const destination = (trip: Trip): TripPlace => ({
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
    precio_estimado: t.exposeInt("precio_estimado", { description: "COP" }),
    multiplicador_demanda: t.exposeFloat("multiplicador_demanda", { description: "El recargo por demanda al pedirlo, de 1.0 a 2.0" }),
    metodo_pago: t.field({ type: PaymentMethodEnum, description: "Cómo se paga", resolve: (trip) => trip.metodo_pago as PaymentMethod }),
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
const TripScope = builder.enumType("AlcanceViajes", {
  description: "Qué viajes de quien llama",
  values: { activos: { description: "pendiente, aceptado, en_ruta, en_curso" }, historial: { description: "completado, cancelado" } },
});

const TripInput = builder.inputType("CreateTripInput", {
  description: "Un viaje que se pide ahora: el servicio (o el tipo de vehículo), cómo se paga, y de dónde a dónde",
  fields: (t) => ({
    tipo_servicio: t.field({ type: ServiceTypeEnum, description: "El servicio" }),
    tipo_vehiculo: t.field({ type: VehicleTypeEnum, description: "Otra forma de pedir el servicio: el de este tipo de vehículo" }),
    metodo_pago: t.field({ type: PaymentMethodEnum, description: "Cómo se paga (efectivo si no se envía)" }),
    origen: t.field({ type: PlaceInput, required: true, description: "Dónde recoger al pasajero; con dirección" }),
    destino: t.field({ type: PlaceInput, required: true, description: "A dónde va; con dirección" }),
  }),
});

const RatingInput = builder.inputType("RatingInput", {
  description: "Una calificación de la otra parte de un viaje completado",
  fields: (t) => ({
    trip_id: t.int({ required: true, description: "El viaje" }),
    calificacion: t.int({ required: true, description: "Entero de 1 a 5" }),
    comentario: t.string({ description: "Un comentario" }),
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
    tipo_servicio: t.field({ type: ServiceTypeEnum, description: "El servicio", resolve: (f) => f.tipo_servicio as ServiceType }),
    precio_estimado: t.exposeFloat("precio_estimado", { description: "El precio, COP" }),
    tarifa_base: t.exposeFloat("tarifa_base", { description: "COP por pedir el viaje" }),
    por_distancia: t.exposeFloat("por_distancia", { description: "COP por los km" }),
    por_tiempo: t.exposeFloat("por_tiempo", { description: "COP por los minutos" }),
    recargo: t.exposeString("recargo", { nullable: true, description: "pico, nocturno, o null si no hay" }),
    porcentaje_recargo: t.exposeFloat("porcentaje_recargo", { description: "El recargo, como fracción (0.15 = 15 %)" }),
    tarifa_minima: t.exposeFloat("tarifa_minima", { description: "COP; ningún viaje cuesta menos" }),
    multiplicador_demanda: t.exposeFloat("multiplicador_demanda", { description: "El recargo por demanda, de 1.0 a 2.0" }),
    distancia_km: t.exposeFloat("distancia_km", { description: "km por carretera" }),
    duracion_estimada_minutos: t.exposeInt("duracion_estimada_minutos", { description: "Minutos estimados" }),
    conductores_disponibles: t.exposeInt("conductores_disponibles", { description: "Conductores libres a 5 km o menos del origen" }),
  }),
});

const tripId = builder.args((t) => ({ trip_id: t.int({ required: true, description: "El viaje" }) }));

/** A later step of a trip, whose rule also trusts legacy calls naming nobody: start, complete, cancel, rate. */
const TRIP_STEP = [...RESTRICTED_TRUSTING_LEGACY, ...LOOKUP, InvalidStateError];

builder.queryFields((t) => ({
  trip: t.prismaField({
    type: TripRef,
    description: "Un viaje, para su pasajero, su conductor o un administrador (o cualquier conductor mientras está pendiente)",
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
    errors: { types: [...CALLER, NotFoundError], dataField: { description: "Los viajes" } },
    args: {
      rol: t.arg({ type: TripRole, required: true, description: "Los que pidió o los que condujo" }),
      alcance: t.arg({ type: TripScope, required: true, description: "Los activos o los terminados" }),
    },
    resolve: (query, _root, args, ctx) => listTrips(ctx.deps, ctx.actor, args.rol, args.alcance, query),
  }),
  fareEstimate: t.field({
    ...PUBLIC,
    type: FareRef,
    description: "Lo que costaría ahora un viaje, sin pedirlo",
    errors: { types: MAPS },
    args: { input: t.arg({ type: TripInput, required: true, description: "El viaje" }) },
    resolve: (_root, { input }, ctx) => fareEstimate(ctx.deps, input),
  }),
}));

builder.mutationFields((t) => ({
  createTrip: t.field({
    type: TripRef,
    description: "Quien llama pide un viaje; solo se crea si hay un conductor disponible a 5 km o menos",
    errors: { types: [...CALLER, ...LOOKUP, ...MAPS, AccountDisabledError, NoDriversAvailableError, ConflictError] },
    args: { input: t.arg({ type: TripInput, required: true, description: "El viaje" }) },
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
    description: "El conductor termina el viaje con su precio final; se asienta en el libro",
    errors: { types: TRIP_STEP },
    args: {
      trip_id: t.arg.int({ required: true, description: "El viaje" }),
      precio_final: t.arg.float({ required: true, description: "COP; se redondea a pesos enteros" }),
      distancia_real: t.arg.float({ description: "km; reemplaza la distancia estimada" }),
    },
    resolve: (_root, args, ctx) => completeTrip(ctx.deps, ctx.actor, args),
  }),
  cancelTrip: t.field({
    type: TripRef,
    description: "El pasajero, el conductor o un administrador cancela un viaje que no ha terminado",
    errors: { types: TRIP_STEP },
    args: {
      trip_id: t.arg.int({ required: true, description: "El viaje" }),
      motivo: t.arg.string({ required: true, description: "Por qué" }),
    },
    resolve: (_root, args, ctx) => cancelTrip(ctx.deps, ctx.actor, args),
  }),
  rateDriver: t.field({
    type: TripRef,
    description: "El pasajero califica al conductor de un viaje completado",
    errors: { types: TRIP_STEP },
    args: { input: t.arg({ type: RatingInput, required: true, description: "La calificación" }) },
    resolve: (_root, { input }, ctx) => rateDriver(ctx.deps, ctx.actor, input),
  }),
  ratePassenger: t.field({
    type: TripRef,
    description: "El conductor califica al pasajero de un viaje completado",
    errors: { types: TRIP_STEP },
    args: { input: t.arg({ type: RatingInput, required: true, description: "La calificación" }) },
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
    // A state seen already is dropped: the same change may come twice, from its event and from a catch-up (src/background/catch-up.ts).
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
