import type { Reservation } from "../../db/models.js";
import {
  commitToReservation,
  myCommitments,
  openReservations,
  withdrawFromReservation,
  type OpenReservation,
} from "../../domain/booking/commitments.js";
import { type ListedReservation, searchReservations } from "../../domain/booking/listing.js";
import {
  bookTrip,
  cancelReservation,
  changeReservation,
  MAX_UPCOMING,
  myReservations,
  viewReservation,
} from "../../domain/booking/reservations.js";
import { pickupZone } from "../../domain/booking/zones.js";
import { companyReservations } from "../../domain/companies/fleet-reservations.js";
import { AccountDisabledError, ConflictError, InvalidStateError } from "../../domain/errors.js";
import type { PaymentMethod } from "../../domain/payment-methods.js";
import type { ServiceType } from "../../domain/service-types.js";
import { builder, type ObjectFields } from "../builder.js";
import { CALLER, DRIVER_AT_WORK, LOOKUP, MAPS, RESTRICTED } from "../errors.js";
import { describedEnum } from "./enums.js";
import { PointRef } from "./maps.js";
import { destination, origin, PaymentMethodEnum, ServiceTypeEnum, TripPlaceRef } from "./trip.js";
import { tripRequestFields } from "./trips.js";

/* Trips booked ahead (reservas): booking, changing, cancelling, drivers committing to them, and the console's lists. */

const ReservationStateEnum = describedEnum("EstadoReserva", "Dónde está un viaje reservado", {
  programada: "Reservado; aún no se ofrece a los conductores",
  despachada: "Se ofrece (o ya se ofreció) como viaje: ver viaje_id",
  cancelada: "Cancelado antes de ofrecerse",
  vencida: "Nadie lo tomó a tiempo; no se cobró nada",
});

/** What every view of a reservation shows: when, where and in which zone, what, its price, its state and its driver. */
const bookingFields = (t: ObjectFields<Reservation>) => ({
  id: t.exposeInt("id", { description: "La reserva" }),
  estado: t.field({ type: ReservationStateEnum, description: "Dónde está", resolve: (booking) => booking.estado as never }),
  fecha_programada: t.expose("fecha_programada", { type: "DateTime", description: "La hora de recogida" }),
  zona: t.string({
    nullable: true,
    description: "El municipio de la recogida (Medellín, Envigado…), del nomenclátor sin conexión; null lejos de todos",
    resolve: pickupZone,
  }),
  tipo_servicio: t.field({ type: ServiceTypeEnum, description: "El servicio", resolve: (booking) => booking.tipo_servicio as ServiceType }),
  metodo_pago: t.field({
    type: PaymentMethodEnum,
    description: "Cómo se paga",
    resolve: (booking) => booking.metodo_pago as PaymentMethod,
  }),
  origen: t.field({ type: TripPlaceRef, description: "Dónde recoger al pasajero", resolve: origin }),
  destino: t.field({ type: TripPlaceRef, description: "A dónde va", resolve: destination }),
  paradas: t.field({
    type: [TripPlaceRef],
    description: "Las paradas en el camino, en orden",
    resolve: (booking) => JSON.parse(booking.paradas),
  }),
  precio_estimado: t.exposeInt("precio_estimado", { description: "COP, para esa hora: lo más que se cobra" }),
  distancia_km: t.exposeFloat("distancia_km", { description: "km por carretera" }),
  duracion_estimada_minutos: t.exposeInt("duracion_estimada_minutos", { description: "Minutos estimados a esa hora" }),
  conductor_id: t.exposeInt("conductor_id", { nullable: true, description: "El conductor que se comprometió con ella, si alguno" }),
  viaje_id: t.exposeInt("viaje_id", { nullable: true, description: "El viaje en que se convirtió al ofrecerse" }),
  motivo_cancelacion: t.exposeString("motivo_cancelacion", { nullable: true, description: "Por qué se canceló" }),
  cancelada_por: t.exposeString("cancelada_por", { nullable: true, description: "pasajero o admin" }),
  creada_en: t.expose("creada_en", { type: "DateTime", description: "Cuándo se reservó" }),
});

const ReservationRef = builder.objectRef<Reservation>("Reserva").implement({
  description: "Un viaje reservado con anticipación, con su precio para esa hora (lo más que se cobra)",
  fields: (t) => ({
    ...bookingFields(t),
    usuario_id: t.exposeInt("usuario_id", { description: "El pasajero" }),
  }),
});

const ListedReservationRef = builder.objectRef<ListedReservation>("ReservaConsola").implement({
  description: "Una reserva como la lista la consola, con el nombre del conductor comprometido; del pasajero, nada",
  fields: (t) => ({
    ...bookingFields(t),
    conductor_nombre: t.exposeString("conductor_nombre", {
      nullable: true,
      description: "El nombre y apellido del conductor comprometido",
    }),
  }),
});

const OpenReservationRef = builder.objectRef<OpenReservation>("ReservaDisponible").implement({
  description: "Una reserva que un conductor puede tomar: cuándo y por dónde, nunca quién",
  fields: (t) => ({
    id: t.exposeInt("id", { description: "La reserva" }),
    fecha_programada: t.expose("fecha_programada", { type: "DateTime", description: "La hora de recogida" }),
    tipo_servicio: t.field({ type: ServiceTypeEnum, description: "El servicio", resolve: (open) => open.tipo_servicio as ServiceType }),
    metodo_pago: t.field({ type: PaymentMethodEnum, description: "Cómo se paga", resolve: (open) => open.metodo_pago as PaymentMethod }),
    zona_origen: t.field({ type: PointRef, description: "Por dónde es la recogida (a un kilómetro)", resolve: (open) => open.zona_origen }),
    zona_destino: t.field({
      type: PointRef,
      description: "Por dónde es el destino (a un kilómetro)",
      resolve: (open) => open.zona_destino,
    }),
    distancia_km: t.exposeFloat("distancia_km", { description: "km del viaje" }),
    duracion_estimada_minutos: t.exposeInt("duracion_estimada_minutos", { description: "Minutos estimados" }),
    precio_estimado: t.exposeInt("precio_estimado", { description: "COP" }),
    distancia_conductor_km: t.exposeFloat("distancia_conductor_km", { description: "km desde el conductor hasta la zona de recogida" }),
  }),
});

const BookingInput = builder.inputType("ReservaInput", {
  description: "Un viaje para reservar: lo de un viaje (CreateTripInput) y la hora de recogida",
  fields: (t) => ({
    ...tripRequestFields(t),
    fecha_programada: t.string({
      required: true,
      description:
        "La hora de recogida, ISO 8601 (sin zona, hora de Bogotá): de BOOKING_MIN_AHEAD_MIN minutos a BOOKING_MAX_AHEAD_DAYS días",
    }),
  }),
});

const BookingChangeInput = builder.inputType("CambioReservaInput", {
  description: "Lo que cambia de una reserva; lo que no se envía queda como estaba. Se cotiza de nuevo",
  fields: (t) => ({
    ...tripRequestFields(t),
    fecha_programada: t.string({ description: "La nueva hora de recogida" }),
  }),
});

const listArgs = builder.args((t) => ({
  desde: t.field({ type: "DateTime", description: "Desde qué hora de recogida" }),
  estado: t.field({ type: ReservationStateEnum, description: "Solo las de este estado" }),
}));

const reservationId = builder.args((t) => ({ reserva_id: t.int({ required: true, description: "La reserva" }) }));

builder.queryFields((t) => ({
  myReservations: t.field({
    type: [ReservationRef],
    description: "Las reservas de quien llama como pasajero: las programadas primero, la más cercana primero; luego las demás",
    errors: { types: CALLER, dataField: { description: "Las reservas" } },
    resolve: (_root, _args, ctx) => myReservations(ctx.deps, ctx.actor),
  }),
  reservation: t.field({
    type: ReservationRef,
    description: "Una reserva, para su pasajero, el conductor comprometido o un administrador",
    errors: { types: [...RESTRICTED, ...LOOKUP] },
    args: reservationId,
    resolve: (_root, args, ctx) => viewReservation(ctx.deps, ctx.actor, args.reserva_id),
  }),
  openReservations: t.field({
    type: [OpenReservationRef],
    description: "Las reservas que el conductor que llama puede tomar: de su servicio, sin conductor, con la recogida a 10 km o menos",
    errors: { types: [...RESTRICTED, ...LOOKUP], dataField: { description: "Las reservas" } },
    args: {
      latitud: t.arg.float({ description: "Dónde está el conductor (su última posición si no se envía)" }),
      longitud: t.arg.float({ description: "Dónde está el conductor" }),
    },
    resolve: (_root, args, ctx) => openReservations(ctx.deps, ctx.actor, args),
  }),
  myCommitments: t.field({
    type: [ReservationRef],
    description: "Las reservas que el conductor que llama tomó y siguen programadas, la más cercana primero",
    errors: { types: RESTRICTED, dataField: { description: "Las reservas" } },
    resolve: (_root, _args, ctx) => myCommitments(ctx.deps, ctx.actor),
  }),
  reservations: t.field({
    type: [ListedReservationRef],
    description: "Las reservas con recogida desde `desde` (ahora si no se envía), la más cercana primero; para administradores",
    errors: { types: [...RESTRICTED, ...LOOKUP], dataField: { description: "Las reservas" } },
    args: listArgs,
    resolve: (_root, args, ctx) => searchReservations(ctx.deps, ctx.actor, args),
  }),
  companyReservations: t.field({
    type: [ListedReservationRef],
    description:
      "Las reservas que tomaron los conductores de la empresa de quien llama (un gestor) o la que un administrador indica, " +
      "con recogida desde `desde` (ahora si no se envía), la más cercana primero; del pasajero, nada",
    errors: { types: [...RESTRICTED, ...LOOKUP], dataField: { description: "Las reservas" } },
    args: {
      ...listArgs,
      empresa_id: t.arg.int({ description: "La empresa (solo administradores; un gestor ve la suya)" }),
    },
    resolve: (_root, args, ctx) => companyReservations(ctx.deps, ctx.actor, args),
  }),
}));

builder.mutationFields((t) => ({
  bookTrip: t.field({
    type: ReservationRef,
    description: `Quien llama reserva un viaje para más tarde, con el precio de esa hora; hasta ${MAX_UPCOMING} programadas a la vez`,
    errors: { types: [...CALLER, ...LOOKUP, ...MAPS, AccountDisabledError, ConflictError] },
    args: { input: t.arg({ type: BookingInput, required: true, description: "El viaje y su hora" }) },
    resolve: (_root, { input }, ctx) => bookTrip(ctx.deps, ctx.actor, input),
  }),
  changeReservation: t.field({
    type: ReservationRef,
    description: "El pasajero cambia la hora o los lugares de su reserva antes de que se ofrezca; se cotiza de nuevo",
    errors: { types: [...RESTRICTED, ...LOOKUP, ...MAPS, InvalidStateError, ConflictError] },
    args: {
      reserva_id: t.arg.int({ required: true, description: "La reserva" }),
      input: t.arg({ type: BookingChangeInput, required: true, description: "Lo que cambia" }),
    },
    resolve: (_root, args, ctx) => changeReservation(ctx.deps, ctx.actor, { ...args.input, reserva_id: args.reserva_id }),
  }),
  cancelReservation: t.field({
    type: ReservationRef,
    description: "El pasajero, o un administrador diciendo por qué, cancela una reserva que aún no se ofrece; no se cobra nada",
    errors: { types: [...RESTRICTED, ...LOOKUP, InvalidStateError] },
    args: {
      reserva_id: t.arg.int({ required: true, description: "La reserva" }),
      motivo: t.arg.string({ description: "Por qué (obligatorio para un administrador)" }),
    },
    resolve: (_root, args, ctx) => cancelReservation(ctx.deps, ctx.actor, args),
  }),
  commitToReservation: t.field({
    type: ReservationRef,
    description: "El conductor que llama toma una reserva con anticipación: cuando llegue la hora se le ofrece primero",
    errors: { types: [...CALLER, ...LOOKUP, ...DRIVER_AT_WORK, InvalidStateError, ConflictError] },
    args: reservationId,
    resolve: (_root, args, ctx) => commitToReservation(ctx.deps, ctx.actor, args.reserva_id),
  }),
  withdrawFromReservation: t.field({
    type: ReservationRef,
    description: "El conductor deja una reserva que tomó; en la última hora cuenta contra su tasa de aceptación",
    errors: { types: [...RESTRICTED, ...LOOKUP, InvalidStateError] },
    args: reservationId,
    resolve: (_root, args, ctx) => withdrawFromReservation(ctx.deps, ctx.actor, args.reserva_id),
  }),
}));
