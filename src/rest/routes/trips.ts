import { z } from "zod";
import { PAYMENT_METHODS } from "../../domain/payment-methods.js";
import { SERVICE_TYPES, VEHICLE_TYPES } from "../../domain/service-types.js";
import { optional } from "../../domain/validation.js";
import { VEHICLE_TYPE_SPELLINGS, legacyChoice, legacyId, legacyInt, legacyNumber, legacyPlace, legacyText } from "../legacy-fields.js";
import { APP_TRIP_STATE, appTripState, appVehicleType } from "../app-vocabulary.js";
import { TRIP, selection } from "../resources.js";
import { defineRoute, operation, type GraphQLData } from "../route.js";

export const TRIP_FRAGMENT = `fragment LegacyTrip on Viaje { ${selection(TRIP)} }`;

/** A call that moves one trip and answers with it. */
const tripChange = <S extends z.ZodObject>(path: string, summary: string, input: S, mutation: string, message: string, caller?: string) =>
  defineRoute({
    method: "POST",
    path,
    summary,
    input,
    caller,
    document: operation(mutation, TRIP_FRAGMENT),
    variables: (fields) => fields,
    output: z.object({ trip: TRIP }),
    respond: (trip) => ({ message, trip }),
  });

type Trip = Record<string, GraphQLData>;

/** A trip with its passenger's name, as pingo's driver screens read it (the history and a trip's detail). */
const TRIP_WITH_PASSENGER = "...LegacyTrip ... on Viaje { pasajero { nombre apellido } ganancia_conductor }";

/** Whose list it is: the rating shown on each entry is the one they were given. */
type ListOwner = "pasajero" | "conductor";
const RECEIVED = {
  conductor: { calificacion: "calificacion_conductor", comentario: "comentario_conductor" },
  pasajero: { calificacion: "calificacion_usuario", comentario: "comentario_usuario" },
} as const;

/**
 * A trip as pingo's driver screens read it (lib/src/features/conductor/: conductor_trips_service.dart
 * prints `origen` and `destino` as text, viaje_activo_card.dart finds the places by
 * `latitud_origen`…, and the filters compare the app's `completada`). Only the spec's own lists
 * (`trips`) keep the places as objects, which the app's trip model reads.
 */
const appTrip =
  (owner: ListOwner) =>
  ({ pasajero, origen, destino, ...trip }: Trip) => ({
    ...trip,
    estado: appTripState(trip.estado),
    origen: origen.direccion,
    destino: destino.direccion,
    latitud_origen: origen.latitud,
    longitud_origen: origen.longitud,
    latitud_destino: destino.latitud,
    longitud_destino: destino.longitud,
    duracion_estimada: trip.duracion_estimada_minutos,
    fecha_completado: trip.fecha_fin,
    cliente_nombre: pasajero?.nombre ?? null,
    cliente_apellido: pasajero?.apellido ?? null,
    calificacion: trip[RECEIVED[owner].calificacion],
    comentario: trip[RECEIVED[owner].comentario],
  });

const SHOWN_VEHICLE = z.object({
  tipo: z.string().nullable(),
  marca: z.string().nullable(),
  modelo: z.string().nullable(),
  placa: z.string().nullable(),
  color: z.string().nullable(),
});

const ASSIGNED_DRIVER = z.object({
  nombre: z.string(),
  apellido: z.string(),
  telefono: z.string(),
  vehiculo: SHOWN_VEHICLE.nullable(),
});

/** Who is coming, as pingo's waiting screen reads `trip.conductor` (waiting_for_driver_screen.dart, _buildDriverFoundInfo). */
const COMING_DRIVER = z.object({
  nombre: z.string(),
  telefono: z.string(),
  calificacion: z.number(),
  vehiculo: SHOWN_VEHICLE,
  ubicacion: z.object({ latitud: z.number(), longitud: z.number() }).nullable(),
});

const NEARBY_CAR = z.object({ vehiculo_tipo: z.string(), latitud: z.number(), longitud: z.number(), distancia_km: z.number() });

const NEARBY_CARS = operation(`query NearbyCars($latitud: Float!, $longitud: Float!, $tipo_vehiculo: TipoVehiculo!, $radio_km: Float) {
  nearbyDrivers(latitud: $latitud, longitud: $longitud, tipo_vehiculo: $tipo_vehiculo, radio_km: $radio_km) {
    ...LegacyError ... on QueryNearbyDriversSuccess { data { tipo_vehiculo latitud longitud distancia_km } }
  }
}`);

/** A car near the pickup, its vehicle in the app's words; the searching screen only counts them. */
const nearbyCar = ({ tipo_vehiculo, ...car }: GraphQLData) => ({ vehiculo_tipo: appVehicleType(tipo_vehiculo), ...car });

const APP_TRIP = TRIP.extend({
  estado: APP_TRIP_STATE,
  origen: z.string(),
  destino: z.string(),
  latitud_origen: z.number(),
  longitud_origen: z.number(),
  latitud_destino: z.number(),
  longitud_destino: z.number(),
  /** The rating the list's owner was given for the trip (1 to 5), and its comment. */
  calificacion: z.int().nullable(),
  comentario: z.string().nullable(),
  duracion_estimada: z.int(),
  fecha_completado: z.iso.datetime().nullable(),
  cliente_nombre: z.string().nullable(),
  cliente_apellido: z.string().nullable(),
  /** What the driver earned with it: for its driver and administrators, null for anyone else. */
  ganancia_conductor: z.int().nullable(),
});

/** A list of one person's trips, as passenger or as driver; pingo's driver screens read it as `viajes`. */
const tripList = (
  path: string,
  aliases: string[],
  summary: string,
  idField: "usuario_id" | "conductor_id",
  rol: ListOwner,
  alcance: string,
) =>
  defineRoute({
    method: "GET",
    path,
    aliases,
    summary,
    input: z.object({ [idField]: legacyId() }),
    // The lists are not paged (spec section 8); pingo's history screen asks for a page anyway.
    ignored: ["page", "limit"],
    caller: idField,
    document: operation(
      `query Trips {
        myTrips(rol: ${rol}, alcance: ${alcance}) {
          ...LegacyError ... on QueryMyTripsSuccess { data { ${TRIP_WITH_PASSENGER} } }
        }
      }`,
      TRIP_FRAGMENT,
    ),
    variables: () => ({}),
    output: z.object({ trips: z.array(TRIP), viajes: z.array(APP_TRIP) }),
    respond: (result) => {
      const trips = result.data.map(({ pasajero: _passenger, ganancia_conductor: _earned, ...trip }: Trip) => trip);
      return { trips, viajes: result.data.map(appTrip(rol)) };
    },
  });

const CANCEL_TRIP = `mutation Cancel($trip_id: Int!, $motivo: String!) {
  cancelTrip(trip_id: $trip_id, motivo: $motivo) { ...LegacyError ...LegacyTrip }
}`;

const rating = z.object({ trip_id: legacyId(), calificacion: legacyInt(), comentario: optional(legacyText()) });

export const tripRoutes = [
  defineRoute({
    method: "POST",
    path: "/viajes/create_trip.php",
    summary: "El pasajero pide un viaje; 200 con success false si no hay conductores a menos de 5 km",
    requireJsonContentType: true,
    input: z.object({
      usuario_id: legacyId(),
      tipo_servicio: legacyChoice(SERVICE_TYPES),
      metodo_pago: optional(legacyChoice(PAYMENT_METHODS)),
      origen: legacyPlace({ addressRequired: true }),
      destino: legacyPlace({ addressRequired: true }),
    }),
    caller: "usuario_id",
    document: operation(
      `mutation CreateTrip($input: CreateTripInput!) { createTrip(input: $input) { ...LegacyError ...LegacyTrip } }`,
      TRIP_FRAGMENT,
    ),
    variables: ({ tipo_servicio, metodo_pago, origen, destino }) => ({ input: { tipo_servicio, metodo_pago, origen, destino } }),
    output: z.object({ trip: TRIP }),
    respond: (trip) => ({ message: "Viaje creado; estamos avisando a los conductores cercanos", trip }),
  }),
  defineRoute({
    method: "POST",
    path: "/user/create_trip_request.php",
    summary: "El pasajero pide un viaje con coordenadas planas; responde solicitud_id",
    input: z.object({
      usuario_id: legacyId(),
      latitud_origen: legacyNumber(),
      longitud_origen: legacyNumber(),
      direccion_origen: optional(legacyText()),
      latitud_destino: legacyNumber(),
      longitud_destino: legacyNumber(),
      direccion_destino: optional(legacyText()),
      // pingo sends the generic "viaje" and names the service through the vehicle type.
      tipo_servicio: optional(z.preprocess((value) => (value === "viaje" ? undefined : value), legacyChoice(SERVICE_TYPES).optional())),
      tipo_vehiculo: optional(legacyChoice(VEHICLE_TYPES, VEHICLE_TYPE_SPELLINGS)),
      metodo_pago: optional(legacyChoice(PAYMENT_METHODS)),
    }),
    // The app's own estimates: the service computes route and price itself.
    ignored: ["distancia_km", "duracion_minutos", "precio_estimado"],
    caller: "usuario_id",
    document: operation(
      `mutation CreateTrip($input: CreateTripInput!) {
        createTrip(input: $input) { ...LegacyError ...LegacyTrip ... on Viaje { conductores_avisados } }
      }`,
      TRIP_FRAGMENT,
    ),
    variables: (input) => ({
      input: {
        tipo_servicio: input.tipo_servicio,
        tipo_vehiculo: input.tipo_vehiculo,
        metodo_pago: input.metodo_pago,
        origen: { latitud: input.latitud_origen, longitud: input.longitud_origen, direccion: input.direccion_origen },
        destino: { latitud: input.latitud_destino, longitud: input.longitud_destino, direccion: input.direccion_destino },
      },
    }),
    legacyNames: {
      "origen.latitud": "latitud_origen",
      "origen.longitud": "longitud_origen",
      "destino.latitud": "latitud_destino",
      "destino.longitud": "longitud_destino",
    },
    output: z.object({ solicitud_id: z.int(), conductores_encontrados: z.int(), trip: TRIP }),
    respond: ({ conductores_avisados, ...trip }) => ({
      message: "Viaje creado; estamos avisando a los conductores cercanos",
      solicitud_id: trip.id,
      conductores_encontrados: conductores_avisados,
      trip,
    }),
  }),
  defineRoute({
    public: true,
    method: "POST",
    path: "/user/find_nearby_drivers.php",
    summary: "Vehículos libres cerca de un punto (como mucho 10, a 5 km o menos), con su posición aproximada y sin datos del conductor",
    input: z.object({
      latitud: legacyNumber(),
      longitud: legacyNumber(),
      tipo_vehiculo: legacyChoice(VEHICLE_TYPES, VEHICLE_TYPE_SPELLINGS),
      radio_km: optional(legacyNumber()),
    }),
    document: NEARBY_CARS,
    variables: (input) => input,
    output: z.object({ total: z.int(), conductores: z.array(NEARBY_CAR) }),
    respond: (result) => ({ total: result.data.length, conductores: result.data.map(nearbyCar) }),
  }),
  defineRoute({
    public: true,
    method: "GET",
    path: "/viajes/find_nearby_drivers.php",
    summary: "Lo mismo que /user/find_nearby_drivers.php con los nombres de la otra pantalla del app (tipo de servicio, radius)",
    // tipo is the service the app asks for: motocicleta and auto name their vehicles; there is no delivery service.
    input: z.object({
      latitud: legacyNumber(),
      longitud: legacyNumber(),
      tipo: legacyChoice(VEHICLE_TYPES, VEHICLE_TYPE_SPELLINGS),
      radius: optional(legacyNumber()),
    }),
    document: NEARBY_CARS,
    variables: ({ latitud, longitud, tipo, radius }) => ({ latitud, longitud, tipo_vehiculo: tipo, radio_km: radius }),
    legacyNames: { tipo_vehiculo: "tipo", radio_km: "radius" },
    output: z.object({ total: z.int(), drivers: z.array(NEARBY_CAR) }),
    respond: (result) => ({ total: result.data.length, drivers: result.data.map(nearbyCar) }),
  }),
  defineRoute({
    method: "GET",
    path: "/viajes/get_trip.php",
    summary: "Un viaje, para sus partes y los administradores",
    input: z.object({ trip_id: legacyId() }),
    spellings: { solicitud_id: "trip_id" },
    document: operation(
      `query Trip($trip_id: Int!) {
        trip(trip_id: $trip_id) {
          ...LegacyError ...LegacyTrip ... on Viaje { conductor { nombre apellido telefono } vehiculo { tipo marca modelo placa color } }
        }
      }`,
      TRIP_FRAGMENT,
    ),
    variables: (input) => input,
    output: z.object({ trip: TRIP.extend({ conductor: ASSIGNED_DRIVER.nullable() }) }),
    // Who is coming, under trip.conductor, for the trip's parties and administrators.
    respond: ({ conductor, vehiculo, ...trip }) => ({ trip: { ...trip, conductor: conductor && { ...conductor, vehiculo } } }),
  }),
  defineRoute({
    method: "GET",
    path: "/user/get_trip_status.php",
    summary:
      "El estado de una solicitud en las palabras del app, con el conductor que viene y dónde está; " +
      "el conductor solo para el pasajero, el conductor y los administradores",
    input: z.object({ solicitud_id: legacyId(), usuario_id: optional(legacyId()) }),
    spellings: { cliente_id: "usuario_id" },
    caller: "usuario_id",
    document: operation(
      `query TripStatus($trip_id: Int!) {
        trip(trip_id: $trip_id) {
          ...LegacyError
          ...LegacyTrip
          ... on Viaje {
            conductor { nombre apellido telefono calificacion }
            vehiculo { tipo marca modelo placa color }
            ubicacion_conductor { latitud longitud }
          }
        }
      }`,
      TRIP_FRAGMENT,
    ),
    variables: ({ solicitud_id }) => ({ trip_id: solicitud_id }),
    legacyNames: { trip_id: "solicitud_id" },
    output: z.object({
      trip: TRIP.extend({
        estado: APP_TRIP_STATE,
        tiempo_estimado_min: z.int(),
        fecha_creacion: z.iso.datetime(),
        conductor: COMING_DRIVER.nullable(),
      }),
    }),
    respond: ({ conductor, vehiculo, ubicacion_conductor, ...trip }) => ({
      trip: {
        ...trip,
        estado: appTripState(trip.estado),
        tiempo_estimado_min: trip.duracion_estimada_minutos,
        fecha_creacion: trip.fecha_solicitud,
        conductor: conductor && {
          nombre: `${conductor.nombre} ${conductor.apellido}`,
          telefono: conductor.telefono,
          calificacion: conductor.calificacion,
          // The screen reads vehiculo.tipo with no null check.
          vehiculo: { marca: null, modelo: null, placa: null, color: null, ...vehiculo, tipo: appVehicleType(vehiculo?.tipo ?? null) },
          ubicacion: ubicacion_conductor,
        },
      },
    }),
  }),
  tripChange(
    "/viajes/accept_trip.php",
    "El conductor acepta un viaje pendiente; uno solo gana",
    z.object({ trip_id: legacyId(), conductor_id: legacyId() }),
    `mutation Accept($trip_id: Int!) { acceptTrip(trip_id: $trip_id) { ...LegacyError ...LegacyTrip } }`,
    "Viaje aceptado",
    "conductor_id",
  ),
  tripChange(
    "/viajes/start_trip.php",
    "El conductor recoge al pasajero: el viaje pasa a en_curso",
    z.object({ trip_id: legacyId() }),
    `mutation Start($trip_id: Int!) { startTrip(trip_id: $trip_id) { ...LegacyError ...LegacyTrip } }`,
    "Viaje iniciado",
  ),
  tripChange(
    "/viajes/complete_trip.php",
    "El conductor termina el viaje con el precio final",
    z.object({ trip_id: legacyId(), precio_final: legacyNumber(), distancia_real: optional(legacyNumber()) }),
    `mutation Complete($trip_id: Int!, $precio_final: Float!, $distancia_real: Float) {
      completeTrip(trip_id: $trip_id, precio_final: $precio_final, distancia_real: $distancia_real) { ...LegacyError ...LegacyTrip }
    }`,
    "Viaje completado",
  ),
  tripChange(
    "/viajes/cancel_trip.php",
    "El pasajero o el conductor cancela un viaje activo, con un motivo",
    z.object({ trip_id: legacyId(), motivo: legacyText() }),
    CANCEL_TRIP,
    "Viaje cancelado",
  ),
  defineRoute({
    method: "POST",
    path: "/user/cancel_trip_request.php",
    summary: "El pasajero cancela su solicitud mientras busca conductor",
    input: z.object({ solicitud_id: legacyId(), cliente_id: optional(legacyId()), motivo: optional(legacyText()) }),
    caller: "cliente_id",
    document: operation(CANCEL_TRIP, TRIP_FRAGMENT),
    // pingo's searching screen sends no reason.
    variables: ({ solicitud_id, motivo }) => ({ trip_id: solicitud_id, motivo: motivo ?? "El pasajero canceló la búsqueda" }),
    legacyNames: { trip_id: "solicitud_id" },
    output: z.object({ solicitud_id: z.int(), trip: TRIP }),
    respond: (trip) => ({ message: "Solicitud cancelada", solicitud_id: trip.id, trip }),
  }),
  tripChange(
    "/viajes/rate_conductor.php",
    "El pasajero califica al conductor de un viaje completado",
    rating,
    `mutation RateDriver($trip_id: Int!, $calificacion: Int!, $comentario: String) {
      rateDriver(input: { trip_id: $trip_id, calificacion: $calificacion, comentario: $comentario }) { ...LegacyError ...LegacyTrip }
    }`,
    "Calificación del conductor registrada",
  ),
  tripChange(
    "/viajes/rate_user.php",
    "El conductor califica al pasajero de un viaje completado",
    rating,
    `mutation RatePassenger($trip_id: Int!, $calificacion: Int!, $comentario: String) {
      ratePassenger(input: { trip_id: $trip_id, calificacion: $calificacion, comentario: $comentario }) { ...LegacyError ...LegacyTrip }
    }`,
    "Calificación del pasajero registrada",
  ),
  tripList("/viajes/get_active_trips.php", [], "Viajes activos del pasajero", "usuario_id", "pasajero", "activos"),
  tripList("/viajes/get_trip_history.php", [], "Viajes completados y cancelados del pasajero", "usuario_id", "pasajero", "historial"),
  tripList(
    "/viajes/get_conductor_active_trips.php",
    ["/conductor/get_viajes_activos.php"],
    "Viajes activos del conductor",
    "conductor_id",
    "conductor",
    "activos",
  ),
  defineRoute({
    method: "GET",
    path: "/conductor/get_viaje_detalle.php",
    summary: "Un viaje del conductor como lo muestra su historial (solo su conductor y los administradores)",
    input: z.object({ conductor_id: legacyId(), viaje_id: legacyId() }),
    caller: "conductor_id",
    document: operation(
      `query DriverTrip($trip_id: Int!) { driverTrip(trip_id: $trip_id) { ...LegacyError ${TRIP_WITH_PASSENGER} } }`,
      TRIP_FRAGMENT,
    ),
    variables: ({ viaje_id }) => ({ trip_id: viaje_id }),
    legacyNames: { trip_id: "viaje_id" },
    output: z.object({ viaje: APP_TRIP }),
    respond: (trip) => ({ viaje: appTrip("conductor")(trip) }),
  }),
  tripList(
    "/viajes/get_conductor_history.php",
    ["/conductor/get_historial.php"],
    "Viajes completados y cancelados del conductor",
    "conductor_id",
    "conductor",
    "historial",
  ),
];
