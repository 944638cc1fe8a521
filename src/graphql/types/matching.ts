import { Repeater } from "graphql-yoga";
import type { DriverPositionEvent, TripRequestEvent } from "../../domain/events.js";
import { updateDriverLocation } from "../../domain/matching/locations.js";
import { lookForTrips, rejectTripRequest, requestFeedOwner, requestsForDriver } from "../../domain/matching/requests.js";
import { assertCanWatchTrip } from "../../domain/trips/watchers.js";
import { InvalidStateError } from "../../domain/errors.js";
import { builder } from "../builder.js";
import { CALLER, DRIVER_AT_WORK, LOOKUP } from "../errors.js";
import { followTrip, TripRef } from "./trips.js";

interface DriverStatusView {
  conductor_id: number;
  latitud: number | null;
  longitud: number | null;
  disponible: boolean;
  posicion_en: Date | null;
  viaje_activo_id: number | null;
}

const DriverStatusRef = builder.objectRef<DriverStatusView>("EstadoConductor").implement({
  fields: (t) => ({
    conductor_id: t.exposeInt("conductor_id"),
    latitud: t.exposeFloat("latitud", { nullable: true }),
    longitud: t.exposeFloat("longitud", { nullable: true }),
    disponibilidad: t.int({ description: "1 en línea, 0 fuera de línea", resolve: (s) => (s.disponible ? 1 : 0) }),
    posicion_en: t.expose("posicion_en", { type: "DateTime", nullable: true }),
    viaje_activo_id: t.exposeInt("viaje_activo_id", { nullable: true }),
  }),
});

const DriverPositionRef = builder.objectRef<DriverPositionEvent>("PosicionConductor").implement({
  fields: (t) => ({
    conductor_id: t.exposeInt("conductor_id"),
    latitud: t.exposeFloat("latitud"),
    longitud: t.exposeFloat("longitud"),
    fecha: t.expose("at", { type: "DateTime" }),
  }),
});

const RequestKind = builder.enumType("TipoSolicitud", {
  values: { nueva: { description: "Una solicitud que puedes tomar" }, retirada: { description: "Ya la tomó otro conductor o se canceló" } },
});

const TripRequestRef = builder.objectRef<TripRequestEvent>("SolicitudViaje").implement({
  fields: (t) => ({
    tipo: t.field({ type: RequestKind, resolve: (e) => e.tipo }),
    viaje: t.field({ type: TripRef, resolve: (e) => e.viaje }),
  }),
});

builder.queryFields((t) => ({
  tripRequests: t.field({
    type: [TripRef],
    description: "Solicitudes pendientes a 5 km o menos de quien llama (conductor en línea) para su tipo de vehículo",
    errors: { types: [...CALLER, ...LOOKUP, ...DRIVER_AT_WORK, InvalidStateError] },
    resolve: (_root, _args, ctx) => requestsForDriver(ctx.deps, ctx.actor),
  }),
}));

builder.mutationFields((t) => ({
  updateDriverLocation: t.field({
    type: DriverStatusRef,
    description: "Posición (cada ~10 s) y disponibilidad del conductor que llama",
    errors: { types: [...CALLER, ...LOOKUP, ...DRIVER_AT_WORK] },
    args: {
      latitud: t.arg.float({ description: "Con longitud; sin ellas, solo cambia la disponibilidad" }),
      longitud: t.arg.float(),
      disponibilidad: t.arg.int({ description: "1 en línea, 0 fuera de línea; sin él, no cambia" }),
    },
    resolve: (_root, args, ctx) => updateDriverLocation(ctx.deps, ctx.actor, args),
  }),
  lookForTrips: t.field({
    type: [TripRef],
    description: "El conductor que llama se pone en línea en esta posición y recibe las solicitudes pendientes a menos de 5 km",
    errors: { types: [...CALLER, ...LOOKUP, ...DRIVER_AT_WORK, InvalidStateError] },
    args: { latitud: t.arg.float({ required: true }), longitud: t.arg.float({ required: true }) },
    resolve: (_root, args, ctx) => lookForTrips(ctx.deps, ctx.actor, args),
  }),
  rejectTripRequest: t.field({
    type: TripRef,
    description: "El conductor que llama rechaza una solicitud",
    errors: { types: [...CALLER, ...LOOKUP, InvalidStateError] },
    args: { trip_id: t.arg.int({ required: true }) },
    resolve: (_root, args, ctx) => rejectTripRequest(ctx.deps, ctx.actor, args.trip_id),
  }),
}));

builder.subscriptionFields((t) => ({
  driverLocation: t.field({
    type: DriverPositionRef,
    description:
      "Las posiciones del conductor asignado mientras el viaje está activo; termina cuando el viaje se completa o se cancela, " +
      "y en seguida si ya había terminado",
    args: { trip_id: t.arg.int({ required: true }) },
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
    description: "Solicitudes nuevas cercanas para el conductor, y su retiro cuando otro las toma o se cancelan",
    args: { conductorId: t.arg.int({ required: true }) },
    subscribe: (_root, args, ctx) => {
      return ctx.pubsub.subscribe("solicitud_viaje", requestFeedOwner(ctx.actor, args.conductorId));
    },
    resolve: (event) => event,
  }),
}));
