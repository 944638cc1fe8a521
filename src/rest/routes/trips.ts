import { z } from "zod";
import { missingOr, optional } from "../../domain/validation.js";
import { legacyId, legacyInt, legacyNumber, legacyText } from "../legacy-fields.js";
import { defineRoute, operation } from "../route.js";

export const TRIP_FRAGMENT = `
fragment LegacyTrip on Viaje {
  id usuario_id conductor_id tipo_servicio estado
  origen { direccion latitud longitud referencia }
  destino { direccion latitud longitud referencia }
  precio_estimado precio_final distancia_km duracion_estimada_minutos
  fecha_solicitud fecha_aceptacion fecha_inicio fecha_fin motivo_cancelacion
  calificacion_conductor comentario_conductor calificacion_usuario comentario_usuario
}`;

const place = () =>
  z.object(
    { direccion: legacyText(), latitud: legacyNumber(), longitud: legacyNumber(), referencia: optional(legacyText()) },
    { error: missingOr("debe ser un objeto con direccion, latitud y longitud") },
  );

const CREATE_TRIP = operation(
  `mutation CreateTrip($input: CreateTripInput!) { createTrip(input: $input) { ...LegacyError ...LegacyTrip } }`,
  TRIP_FRAGMENT,
);

/** A call that moves one trip and answers with it. */
const tripChange = <S extends z.ZodType>(path: string, input: S, mutation: string, message: string, caller?: string) =>
  defineRoute({
    method: "POST",
    path,
    input,
    caller,
    document: operation(mutation, TRIP_FRAGMENT),
    variables: (fields) => fields as Record<string, unknown>,
    respond: (trip) => ({ message, trip }),
  });

/** A list of one person's trips, as passenger or as driver. */
const tripList = (path: string, idField: "usuario_id" | "conductor_id", rol: string, alcance: string) =>
  defineRoute({
    method: "GET",
    path,
    input: z.object({ [idField]: legacyId() }),
    caller: idField,
    document: operation(
      `query Trips { myTrips(rol: ${rol}, alcance: ${alcance}) { ...LegacyError ... on QueryMyTripsSuccess { data { ...LegacyTrip } } } }`,
      TRIP_FRAGMENT,
    ),
    variables: () => ({}),
    respond: (result) => ({ trips: result.data }),
  });

const rating = z.object({ trip_id: legacyId(), calificacion: legacyInt(), comentario: optional(legacyText()) });

export const tripRoutes = [
  defineRoute({
    method: "POST",
    path: "/viajes/create_trip.php",
    requireJsonContentType: true,
    input: z.object({ usuario_id: legacyId(), tipo_servicio: legacyText(), origen: place(), destino: place() }),
    caller: "usuario_id",
    document: CREATE_TRIP,
    variables: ({ tipo_servicio, origen, destino }) => ({ input: { tipo_servicio, origen, destino } }),
    status: 201,
    respond: (trip) => ({ message: "Viaje creado; estamos avisando a los conductores cercanos", trip }),
  }),
  defineRoute({
    method: "POST",
    path: "/user/create_trip_request.php",
    input: z.object({
      usuario_id: legacyId(),
      latitud_origen: legacyNumber(),
      longitud_origen: legacyNumber(),
      latitud_destino: legacyNumber(),
      longitud_destino: legacyNumber(),
      tipo_servicio: optional(legacyText()),
      tipo_vehiculo: optional(legacyText()),
    }),
    caller: "usuario_id",
    document: CREATE_TRIP,
    variables: (input) => ({
      input: {
        tipo_servicio: input.tipo_servicio,
        tipo_vehiculo: input.tipo_vehiculo,
        origen: { latitud: input.latitud_origen, longitud: input.longitud_origen },
        destino: { latitud: input.latitud_destino, longitud: input.longitud_destino },
      },
    }),
    legacyNames: {
      "origen.latitud": "latitud_origen",
      "origen.longitud": "longitud_origen",
      "destino.latitud": "latitud_destino",
      "destino.longitud": "longitud_destino",
    },
    status: 201,
    respond: (trip) => ({ message: "Viaje creado; estamos avisando a los conductores cercanos", trip }),
  }),
  defineRoute({
    method: "GET",
    path: "/viajes/get_trip.php",
    input: z.object({ trip_id: legacyId() }),
    document: operation(`query Trip($trip_id: Int!) { trip(trip_id: $trip_id) { ...LegacyError ...LegacyTrip } }`, TRIP_FRAGMENT),
    variables: (input) => input,
    respond: (trip) => ({ trip }),
  }),
  tripChange(
    "/viajes/accept_trip.php",
    z.object({ trip_id: legacyId(), conductor_id: legacyId() }),
    `mutation Accept($trip_id: Int!) { acceptTrip(trip_id: $trip_id) { ...LegacyError ...LegacyTrip } }`,
    "Viaje aceptado",
    "conductor_id",
  ),
  tripChange(
    "/viajes/start_trip.php",
    z.object({ trip_id: legacyId() }),
    `mutation Start($trip_id: Int!) { startTrip(trip_id: $trip_id) { ...LegacyError ...LegacyTrip } }`,
    "Viaje iniciado",
  ),
  tripChange(
    "/viajes/complete_trip.php",
    z.object({ trip_id: legacyId(), precio_final: legacyNumber(), distancia_real: optional(legacyNumber()) }),
    `mutation Complete($trip_id: Int!, $precio_final: Float!, $distancia_real: Float) {
      completeTrip(trip_id: $trip_id, precio_final: $precio_final, distancia_real: $distancia_real) { ...LegacyError ...LegacyTrip }
    }`,
    "Viaje completado",
  ),
  tripChange(
    "/viajes/cancel_trip.php",
    z.object({ trip_id: legacyId(), motivo: legacyText() }),
    `mutation Cancel($trip_id: Int!, $motivo: String!) { cancelTrip(trip_id: $trip_id, motivo: $motivo) { ...LegacyError ...LegacyTrip } }`,
    "Viaje cancelado",
  ),
  tripChange(
    "/viajes/rate_conductor.php",
    rating,
    `mutation RateDriver($trip_id: Int!, $calificacion: Int!, $comentario: String) {
      rateDriver(input: { trip_id: $trip_id, calificacion: $calificacion, comentario: $comentario }) { ...LegacyError ...LegacyTrip }
    }`,
    "Calificación del conductor registrada",
  ),
  tripChange(
    "/viajes/rate_user.php",
    rating,
    `mutation RatePassenger($trip_id: Int!, $calificacion: Int!, $comentario: String) {
      ratePassenger(input: { trip_id: $trip_id, calificacion: $calificacion, comentario: $comentario }) { ...LegacyError ...LegacyTrip }
    }`,
    "Calificación del pasajero registrada",
  ),
  tripList("/viajes/get_active_trips.php", "usuario_id", "pasajero", "activos"),
  tripList("/viajes/get_trip_history.php", "usuario_id", "pasajero", "historial"),
  tripList("/viajes/get_conductor_active_trips.php", "conductor_id", "conductor", "activos"),
  tripList("/viajes/get_conductor_history.php", "conductor_id", "conductor", "historial"),
];
