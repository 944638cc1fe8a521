import { queryFromInfo } from "@pothos/plugin-prisma";
import { Repeater } from "graphql-yoga";
import type { Trip } from "../../db/models.js";
import { createTrip, fareEstimate } from "../../domain/trips/create.js";
import { driverTrip, getTrip, listTrips, viewTrip } from "../../domain/trips/queries.js";
import { rateDriver, ratePassenger } from "../../domain/trips/ratings.js";
import type { ServiceType } from "../../domain/service-types.js";
import { isFinal, isFurther } from "../../domain/trip-states.js";
import { assertCanWatchTrip } from "../../domain/trips/watchers.js";
import { acceptTrip, cancelTrip, completeTrip, startRoute, startTrip } from "../../domain/trips/transitions.js";
import { confirmTripStart } from "../../domain/trips/start-pin.js";
import { markStop } from "../../domain/trips/stops.js";
import { answerTripChange, requestTripChange } from "../../domain/trips/changes.js";
import { MAX_STOPS } from "../../domain/booking/request.js";
import { AccountDisabledError, ConflictError, InvalidStateError, NoDriversAvailableError, NotFoundError } from "../../domain/errors.js";
import { PUBLIC } from "../sign-in.js";
import { builder, type InputFields } from "../builder.js";
import { CALLER, DRIVER_AT_WORK, LOOKUP, MAPS, RESTRICTED, RESTRICTED_TRUSTING_LEGACY } from "../errors.js";
import type { Context } from "../context.js";
import { PlaceInput, PointRef } from "./maps.js";
import type { Point } from "../../domain/geo.js";
import { VehicleTypeEnum } from "./enums.js";
import { PaymentMethodEnum, ServiceTypeEnum, TripChangeRef, TripRef, TripRole } from "./trip.js";

const TripScope = builder.enumType("AlcanceViajes", {
  description: "Qué viajes de quien llama",
  values: { activos: { description: "pendiente, aceptado, en_ruta, en_curso" }, historial: { description: "completado, cancelado" } },
});

/** What a trip asked for is made of: the service, how it is paid, from where to where; also booked ahead. */
export const tripRequestFields = (t: InputFields) => ({
  tipo_servicio: t.field({ type: ServiceTypeEnum, description: "El servicio" }),
  tipo_vehiculo: t.field({ type: VehicleTypeEnum, description: "Otra forma de pedir el servicio: el de este tipo de vehículo" }),
  metodo_pago: t.field({ type: PaymentMethodEnum, description: "Cómo se paga (efectivo si no se envía)" }),
  origen: t.field({ type: PlaceInput, description: "Dónde recoger al pasajero; con dirección (o lugar_origen_id)" }),
  destino: t.field({ type: PlaceInput, description: "A dónde va; con dirección (o lugar_destino_id)" }),
  lugar_origen_id: t.int({ description: "En vez de origen, uno de los lugares guardados de quien llama (savedPlaces)" }),
  lugar_destino_id: t.int({ description: "En vez de destino, uno de los lugares guardados de quien llama" }),
  paradas: t.field({
    type: [PlaceInput],
    description: `Hasta ${MAX_STOPS} paradas en el camino, en orden; la ruta y el precio pasan por todas`,
  }),
  cotizacion_id: t.string({
    description:
      "Al pedirlo, la cotización de quien llama (fareEstimate) para el mismo servicio, lugares y método de pago: se cobra como mucho su precio",
  }),
});

const TripInput = builder.inputType("CreateTripInput", {
  description: "Un viaje que se pide ahora: el servicio (o el tipo de vehículo), cómo se paga, y de dónde a dónde",
  fields: tripRequestFields,
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
  puntos: Point[];
  por_recargo: number;
  cotizacion_id: string | null;
  vence_en: Date | null;
  fecha_programada: Date | null;
}

const FareRef = builder.objectRef<FareView>("EstimacionTarifa").implement({
  description: "Precio de un viaje, en COP, con su desglose; para quien inició sesión, una cotización que lo sostiene",
  fields: (t) => ({
    tipo_servicio: t.field({ type: ServiceTypeEnum, description: "El servicio", resolve: (f) => f.tipo_servicio as ServiceType }),
    precio_estimado: t.exposeFloat("precio_estimado", { description: "El precio, COP" }),
    tarifa_base: t.exposeFloat("tarifa_base", { description: "COP por pedir el viaje" }),
    por_distancia: t.exposeFloat("por_distancia", { description: "COP por los km" }),
    por_tiempo: t.exposeFloat("por_tiempo", { description: "COP por los minutos" }),
    recargo: t.exposeString("recargo", { nullable: true, description: "pico, nocturno, o null si no hay" }),
    porcentaje_recargo: t.exposeFloat("porcentaje_recargo", { description: "El recargo, como fracción (0.15 = 15 %)" }),
    por_recargo: t.exposeFloat("por_recargo", { description: "COP que suma el recargo" }),
    tarifa_minima: t.exposeFloat("tarifa_minima", { description: "COP; ningún viaje cuesta menos" }),
    multiplicador_demanda: t.exposeFloat("multiplicador_demanda", { description: "El recargo por demanda, de 1.0 a 2.0" }),
    distancia_km: t.exposeFloat("distancia_km", { description: "km por carretera" }),
    duracion_estimada_minutos: t.exposeInt("duracion_estimada_minutos", { description: "Minutos estimados" }),
    conductores_disponibles: t.exposeInt("conductores_disponibles", { description: "Conductores libres a 5 km o menos del origen" }),
    puntos: t.field({ type: [PointRef], description: "La ruta, como puntos en orden (por las paradas, si hay)", resolve: (f) => f.puntos }),
    cotizacion_id: t.exposeString("cotizacion_id", {
      nullable: true,
      description: "La cotización, para pedir el viaje con ella (createTrip) antes de vence_en; null si nadie inició sesión",
    }),
    vence_en: t.expose("vence_en", { type: "DateTime", nullable: true, description: "Hasta cuándo vale la cotización" }),
    fecha_programada: t.expose("fecha_programada", {
      type: "DateTime",
      nullable: true,
      description: "La hora de recogida cotizada, para un viaje programado; null para uno ahora",
    }),
  }),
});

const tripId = builder.args((t) => ({ trip_id: t.int({ required: true, description: "El viaje" }) }));
const stopArgs = builder.args((t) => ({
  trip_id: t.int({ required: true, description: "El viaje" }),
  orden: t.int({ required: true, description: "La parada: 1 la primera" }),
}));

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
  myTrips: t.field({
    type: [TripRef],
    description: "Los viajes de quien llama, como pasajero o como conductor, los más recientes primero",
    errors: { types: [...CALLER, NotFoundError], dataField: { description: "Los viajes" } },
    args: {
      rol: t.arg({ type: TripRole, required: true, description: "Los que pidió o los que condujo" }),
      alcance: t.arg({ type: TripScope, required: true, description: "Los activos o los terminados" }),
    },
    // The planned read sits under the errors plugin's `data`, where a prisma field's own plan does not reach.
    resolve: (_root, args, ctx, info) =>
      listTrips(ctx.deps, ctx.actor, args.rol, args.alcance, queryFromInfo({ context: ctx, info, path: ["data"] })),
  }),
  fareEstimate: t.field({
    ...PUBLIC,
    type: FareRef,
    description:
      "Lo que costaría un viaje, sin pedirlo: ahora o a una hora de recogida. A quien inició sesión le da una cotización (cotizacion_id) que sostiene el precio QUOTE_TTL_S segundos (300 por defecto)",
    errors: { types: MAPS },
    args: {
      input: t.arg({ type: TripInput, required: true, description: "El viaje (sin cotizacion_id)" }),
      fecha_programada: t.arg.string({
        description:
          "Para un viaje programado, la hora de recogida (ISO 8601; sin zona, hora de Bogotá): se cotiza con las reglas de esa hora y sin recargo por demanda",
      }),
    },
    resolve: (_root, { input, fecha_programada }, ctx) => fareEstimate(ctx.deps, ctx.actor, input, fecha_programada),
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
    description: "El pasajero subió (en_curso); con el PIN del viaje si el pasajero verifica con PIN",
    errors: { types: TRIP_STEP },
    args: {
      trip_id: t.arg.int({ required: true, description: "El viaje" }),
      pin: t.arg.string({ description: "Los 4 dígitos que dice el pasajero; obligatorio si activó verificar_pin" }),
    },
    resolve: (_root, args, ctx) => startTrip(ctx.deps, ctx.actor, args.trip_id, args.pin),
  }),
  arriveAtStop: t.field({
    type: TripRef,
    description: "El conductor asignado llega a una parada del viaje en curso, en orden; la espera cuenta como tiempo del viaje",
    errors: { types: [...RESTRICTED, ...LOOKUP, InvalidStateError] },
    args: stopArgs,
    resolve: (_root, args, ctx) => markStop(ctx.deps, ctx.actor, args, "llegada"),
  }),
  leaveStop: t.field({
    type: TripRef,
    description: "El conductor asignado sale de la parada a la que llegó",
    errors: { types: [...RESTRICTED, ...LOOKUP, InvalidStateError] },
    args: stopArgs,
    resolve: (_root, args, ctx) => markStop(ctx.deps, ctx.actor, args, "salida"),
  }),
  requestTripChange: t.field({
    type: TripChangeRef,
    description:
      "El pasajero pide, durante el viaje, otro destino u otras paradas por venir: se cotiza de nuevo y se aplica solo si el conductor acepta a tiempo (CHANGE_ANSWER_S)",
    errors: { types: [...RESTRICTED, ...LOOKUP, ...MAPS, InvalidStateError, ConflictError] },
    args: {
      trip_id: t.arg.int({ required: true, description: "El viaje" }),
      destino: t.arg({ type: PlaceInput, description: "El nuevo destino" }),
      lugar_destino_id: t.arg.int({ description: "En vez de destino, uno de los lugares guardados del pasajero" }),
      paradas: t.arg({ type: [PlaceInput], description: "Las paradas por venir, en orden (las alcanzadas se quedan)" }),
    },
    resolve: (_root, args, ctx) => requestTripChange(ctx.deps, ctx.actor, args),
  }),
  answerTripChange: t.field({
    type: TripChangeRef,
    description: "El conductor del viaje acepta o rechaza un cambio pedido, antes de que venza",
    errors: { types: [...RESTRICTED, ...LOOKUP, InvalidStateError] },
    args: {
      cambio_id: t.arg.int({ required: true, description: "El cambio" }),
      aceptar: t.arg.boolean({ required: true, description: "true: se aplica; false: el viaje sigue como estaba" }),
    },
    resolve: (_root, args, ctx) => answerTripChange(ctx.deps, ctx.actor, args),
  }),
  confirmTripStart: t.field({
    type: TripRef,
    description:
      "El pasajero confirma en su app que el viaje puede iniciar: el conductor lo inicia sin PIN (la salida tras 5 PIN incorrectos)",
    errors: { types: [...RESTRICTED, ...LOOKUP, InvalidStateError] },
    args: tripId,
    resolve: (_root, args, ctx) => confirmTripStart(ctx.deps, ctx.actor, args.trip_id),
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
