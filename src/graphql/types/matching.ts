import { queryFromInfo } from "@pothos/plugin-prisma";
import { Repeater } from "graphql-yoga";
import type { DriverPositionEvent, TripRequestEvent } from "../../domain/events.js";
import { driverStatus, type DriverStatus } from "../../domain/drivers/availability.js";
import { updateDriverLocation } from "../../domain/matching/locations.js";
import { openOffers } from "../../domain/matching/missed.js";
import { nearbyCars, type NearbyCar } from "../../domain/matching/nearby-cars.js";
import { lookForTrips, rejectTripRequest, requestFeedOwner, requestsForDriver } from "../../domain/matching/requests.js";
import { assertCanWatchTrip } from "../../domain/trips/watchers.js";
import { InvalidStateError, ValidationError } from "../../domain/errors.js";
import { PUBLIC } from "../sign-in.js";
import { builder } from "../builder.js";
import { CALLER, DRIVER_AT_WORK, LOOKUP } from "../errors.js";
import { DriverProfile } from "./drivers.js";
import { TripRef } from "./trip.js";
import { followTrip } from "./trips.js";
import { VehicleTypeEnum } from "./enums.js";

/** A driver's status; a report of the phone also says whether it put the driver online or offline. */
type DriverStatusView = DriverStatus & { cambio_disponibilidad?: boolean };

const DriverStatusRef = builder.objectRef<DriverStatusView>("EstadoConductor").implement({
  description: "Si un conductor está en línea, dónde lo ubicó su teléfono por última vez y su viaje en curso",
  fields: (t) => ({
    conductor_id: t.exposeInt("conductor_id", { description: "El conductor" }),
    latitud: t.exposeFloat("latitud", { nullable: true, description: "Latitud de su última posición" }),
    longitud: t.exposeFloat("longitud", { nullable: true, description: "Longitud de su última posición" }),
    disponibilidad: t.int({ description: "1 en línea, 0 fuera de línea", resolve: (s) => (s.disponible ? 1 : 0) }),
    posicion_en: t.expose("posicion_en", { type: "DateTime", nullable: true, description: "Cuándo reportó esa posición" }),
    viaje_activo_id: t.exposeInt("viaje_activo_id", { nullable: true, description: "El viaje que atiende, si alguno" }),
    cambio_disponibilidad: t.boolean({
      description:
        "Si esta llamada puso al conductor en línea o fuera de línea: false cuando ya lo estaba (repetirlo no cambia nada) " +
        "o cuando solo se consultó su estado",
      resolve: (s) => s.cambio_disponibilidad ?? false,
    }),
  }),
});

builder.objectField(DriverProfile, "estado_actual", (t) =>
  t.field({
    type: DriverStatusRef,
    description:
      "Si el conductor está en línea y dónde lo ubicó su teléfono por última vez: para él, los administradores y los gestores de su empresa",
    resolve: (profile, _args, ctx) => driverStatus(ctx.deps, ctx.actor, profile.conductor_id),
  }),
);

const NearbyCarRef = builder.objectRef<NearbyCar>("VehiculoCercano").implement({
  description: "Un vehículo libre cerca, sin nada de quien lo conduce; su posición es aproximada",
  fields: (t) => ({
    tipo_vehiculo: t.expose("tipo_vehiculo", { type: VehicleTypeEnum, description: "Su tipo" }),
    latitud: t.exposeFloat("latitud", { description: "El centro de la celda (unos 330 m de lado) en que está el vehículo" }),
    longitud: t.exposeFloat("longitud", { description: "El centro de la celda (unos 330 m de lado) en que está el vehículo" }),
    distancia_km: t.exposeFloat("distancia_km", { description: "Desde el punto pedido hasta esa posición aproximada, al 0,1 km" }),
  }),
});

const DriverPositionRef = builder.objectRef<DriverPositionEvent>("PosicionConductor").implement({
  description: "Una posición que reportó el teléfono de un conductor",
  fields: (t) => ({
    conductor_id: t.exposeInt("conductor_id", { description: "El conductor" }),
    latitud: t.exposeFloat("latitud", { description: "Latitud (grados)" }),
    longitud: t.exposeFloat("longitud", { description: "Longitud (grados)" }),
    fecha: t.expose("at", { type: "DateTime", description: "Cuándo la reportó" }),
  }),
});

const RequestKind = builder.enumType("TipoSolicitud", {
  description: "Qué dice un aviso de solicitud a un conductor",
  values: { nueva: { description: "Una solicitud que puedes tomar" }, retirada: { description: "Ya la tomó otro conductor o se canceló" } },
});

const TripRequestRef = builder.objectRef<TripRequestEvent>("SolicitudViaje").implement({
  description: "Un aviso a un conductor sobre una solicitud cercana",
  fields: (t) => ({
    tipo: t.field({ type: RequestKind, description: "Si es nueva o ya no está", resolve: (e) => e.tipo }),
    viaje: t.field({ type: TripRef, description: "La solicitud", resolve: (e) => e.viaje }),
  }),
});

builder.queryFields((t) => ({
  nearbyDrivers: t.field({
    ...PUBLIC,
    type: [NearbyCarRef],
    description:
      "Vehículos que podrían tomar ahora un viaje desde el punto (conductores aprobados, en línea, libres, con documentos " +
      "vigentes y posición reciente), los más cercanos primero, como mucho 10; sin datos de los conductores",
    errors: { types: [ValidationError], dataField: { description: "Los vehículos, los más cercanos primero" } },
    args: {
      latitud: t.arg.float({ required: true, description: "Latitud del punto de recogida" }),
      longitud: t.arg.float({ required: true, description: "Longitud del punto de recogida" }),
      tipo_vehiculo: t.arg({ type: VehicleTypeEnum, required: true, description: "El tipo de vehículo" }),
      radio_km: t.arg.float({ description: "Hasta qué distancia buscar, en km; 5 por defecto y como máximo" }),
    },
    resolve: (_root, args, ctx) => nearbyCars(ctx.deps, args),
  }),
  tripRequests: t.field({
    type: [TripRef],
    description: "Solicitudes pendientes a 5 km o menos de quien llama (conductor en línea) para su tipo de vehículo",
    errors: { types: [...CALLER, ...LOOKUP, ...DRIVER_AT_WORK, InvalidStateError], dataField: { description: "Las solicitudes" } },
    resolve: (_root, _args, ctx, info) => requestsForDriver(ctx.deps, ctx.actor, queryFromInfo({ context: ctx, info, path: ["data"] })),
  }),
}));

builder.mutationFields((t) => ({
  updateDriverLocation: t.field({
    type: DriverStatusRef,
    description: "Posición (cada ~10 s) y disponibilidad del conductor que llama",
    errors: { types: [...CALLER, ...LOOKUP, ...DRIVER_AT_WORK] },
    args: {
      latitud: t.arg.float({ description: "Con longitud; sin ellas, solo cambia la disponibilidad" }),
      longitud: t.arg.float({ description: "Con latitud" }),
      disponibilidad: t.arg.int({ description: "1 en línea, 0 fuera de línea; sin él, no cambia" }),
    },
    resolve: (_root, args, ctx) => updateDriverLocation(ctx.deps, ctx.actor, args),
  }),
  lookForTrips: t.field({
    type: [TripRef],
    description: "El conductor que llama se pone en línea en esta posición y recibe las solicitudes pendientes a menos de 5 km",
    errors: {
      types: [...CALLER, ...LOOKUP, ...DRIVER_AT_WORK, InvalidStateError],
      dataField: { description: "Las solicitudes pendientes cercanas" },
    },
    args: {
      latitud: t.arg.float({ required: true, description: "Latitud del conductor" }),
      longitud: t.arg.float({ required: true, description: "Longitud del conductor" }),
    },
    resolve: (_root, args, ctx, info) => lookForTrips(ctx.deps, ctx.actor, args, queryFromInfo({ context: ctx, info, path: ["data"] })),
  }),
  rejectTripRequest: t.field({
    type: TripRef,
    description: "El conductor que llama rechaza una solicitud",
    errors: { types: [...CALLER, ...LOOKUP, InvalidStateError] },
    args: { trip_id: t.arg.int({ required: true, description: "La solicitud" }) },
    resolve: (_root, args, ctx) => rejectTripRequest(ctx.deps, ctx.actor, args.trip_id),
  }),
}));

builder.subscriptionFields((t) => ({
  driverLocation: t.field({
    type: DriverPositionRef,
    description:
      "Las posiciones del conductor asignado mientras el viaje está activo; termina cuando el viaje se completa o se cancela, " +
      "y en seguida si ya había terminado",
    args: { trip_id: t.arg.int({ required: true, description: "El viaje" }) },
    subscribe: async (_root, args, ctx) => {
      const trip = await assertCanWatchTrip(ctx.deps, ctx.actor, args.trip_id);
      // Everything is opened inside: a Repeater returned before its first next() never runs, and leaves nothing open.
      return new Repeater<DriverPositionEvent>(async (push, stop) => {
        const positions = ctx.pubsub.subscribe("ubicacion_viaje", trip.id);
        void stop.then(() => positions.return());
        // Listening to positions before following the trip, which reads it: none is lost in between.
        const first = positions.next();
        // The trip's end (or its having ended already) ends the positions.
        void followTrip(ctx, trip.id, stop).then(() => stop(), stop);
        for (let step = await first; !step.done; step = await positions.next()) await push(step.value);
        stop();
      });
    },
    resolve: (position) => position,
  }),
  tripRequests: t.field({
    type: TripRequestRef,
    description:
      "Solicitudes cercanas para el conductor: primero las que ya se le ofrecieron y siguen abiertas (al reconectarse no " +
      "pierde ninguna), luego cada nueva, y su retiro cuando otro las toma o se cancelan",
    args: { conductorId: t.arg.int({ required: true, description: "El conductor que se conecta (un administrador puede nombrar otro)" }) },
    subscribe: (_root, args, ctx) => {
      const conductorId = requestFeedOwner(ctx.actor, args.conductorId);
      return new Repeater<TripRequestEvent>(async (push, stop) => {
        const requests = ctx.pubsub.subscribe("solicitud_viaje", conductorId);
        void stop.then(() => requests.return());
        // Each request once: the open offers read below, or a catch-up (src/background/catch-up.ts), may bring again one its event brought.
        const offered = new Set<number>();
        const once = async (event: TripRequestEvent) => {
          if (event.tipo === "nueva" && offered.has(event.viaje.id)) return;
          offered.add(event.viaje.id);
          await push(event);
        };
        // Listening before reading the open offers: none made in between is lost.
        const first = requests.next();
        for (const { viaje } of await openOffers(ctx.deps, [conductorId])) await once({ tipo: "nueva", viaje });
        for (let step = await first; !step.done; step = await requests.next()) await once(step.value);
        stop();
      });
    },
    resolve: (event) => event,
  }),
}));
