import { z } from "zod";
import { legacyId } from "../../legacy-fields.js";
import { APP_TRIP_STATE, appTripState } from "../../app-vocabulary.js";
import { TRIP } from "../../resources.js";
import { defineRoute, operation, type GraphQLData } from "../../route.js";
import { TRIP_FRAGMENT } from "./calls.js";

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
 * A trip as the app's driver screens read it (https://github.com/Braian551/pingo/blob/35be6b2751ba54667ec1437fc46cd3a8ee79fd51/lib/src/features/conductor/:
 * services/conductor_trips_service.dart prints `origen` and `destino` as text,
 * presentation/widgets/viaje_activo_card.dart finds the places by
 * `latitud_origen`…, and the filters compare the app's `completada`). Only the legacy interface's own lists
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
    // The lists are not paged (docs/legacy-api.md); the app's history screen asks for a page anyway.
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

/** A person's trips, as passenger or as driver, and one trip as the driver's detail screen reads it. */
export const listRoutes = [
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
