import { z } from "zod";
import { optional } from "../../../domain/validation.js";
import { legacyId, legacyInt, legacyNumber, legacyText } from "../../legacy-fields.js";
import { DRIVER_STATE, REQUEST, TRIP, selection } from "../../resources.js";
import { defineRoute, operation, type GraphQLData, type LegacyRoute } from "../../route.js";
import { TRIP_FRAGMENT } from "../trips/calls.js";
import { driver, driverRead } from "./calls.js";

const SOLICITUD_FRAGMENT = `
fragment LegacyRequest on Viaje {
  id usuario_id pasajero_nombre tipo_servicio estado precio_estimado metodo_pago distancia_km duracion_estimada_minutos fecha_solicitud
  origen { direccion latitud longitud } destino { direccion latitud longitud }
}`;

const REQUESTS = z.object({ solicitudes: z.array(REQUEST), total: z.int() });

/** A pending trip as the driver app's request screens read it (flat coordinates and addresses). */
const solicitud = (trip: GraphQLData) => ({
  id: trip.id,
  usuario_id: trip.usuario_id,
  // The passenger's first name, which the request screen shows; nothing more of their account.
  cliente_nombre: trip.pasajero_nombre,
  tipo_servicio: trip.tipo_servicio,
  estado: trip.estado,
  latitud_origen: trip.origen.latitud,
  longitud_origen: trip.origen.longitud,
  direccion_origen: trip.origen.direccion,
  latitud_destino: trip.destino.latitud,
  longitud_destino: trip.destino.longitud,
  direccion_destino: trip.destino.direccion,
  distancia_km: trip.distancia_km,
  duracion_minutos: trip.duracion_estimada_minutos,
  precio_estimado: trip.precio_estimado,
  // Whether the driver collects the fare in cash.
  metodo_pago: trip.metodo_pago,
  fecha_solicitud: trip.fecha_solicitud,
});

/** Where the driver is and whether they take trips: the location and availability calls both report it. */
const REPORT_POSITION = operation(`mutation Report($latitud: Float, $longitud: Float, $disponibilidad: Int) {
  updateDriverLocation(latitud: $latitud, longitud: $longitud, disponibilidad: $disponibilidad) {
    ...LegacyError ... on EstadoConductor { ${selection(DRIVER_STATE)} cambio_disponibilidad }
  }
}`);

/** What the driver is told after asking to go online (1) or offline (0): asking again what already holds is no error. */
function availabilityMessage({ disponibilidad, cambio_disponibilidad, viaje_activo_id }: GraphQLData, asked: number) {
  if (disponibilidad === 1) return cambio_disponibilidad ? "Estás en línea" : "Ya estabas en línea";
  if (asked === 1 && viaje_activo_id !== null) return "Tienes un viaje en curso; volverás a estar en línea al terminarlo";
  return cambio_disponibilidad ? "Estás fuera de línea" : "Ya estabas fuera de línea";
}

/** The driver's working day: where they are, whether they take trips, the requests near them, taking one or turning it down. */
export const workRoutes: LegacyRoute[] = [
  defineRoute({
    method: "POST",
    path: "/conductor/update_location.php",
    aliases: ["/conductor/actualizar_ubicacion.php"],
    summary: "Posición del conductor (cada ~10 s) y, si se envía, su disponibilidad",
    input: z.object({ ...driver, latitud: legacyNumber(), longitud: legacyNumber(), disponibilidad: optional(legacyInt()) }),
    spellings: { disponible: "disponibilidad" },
    caller: "conductor_id",
    document: REPORT_POSITION,
    variables: ({ latitud, longitud, disponibilidad }) => ({ latitud, longitud, disponibilidad }),
    output: z.object({ ubicacion: DRIVER_STATE }),
    respond: ({ cambio_disponibilidad: _changed, ...ubicacion }) => ({ message: "Ubicación actualizada", ubicacion }),
  }),
  defineRoute({
    method: "POST",
    path: "/conductor/actualizar_disponibilidad.php",
    aliases: ["/conductor/update_availability.php"],
    summary: "El conductor se pone en línea (1) o fuera de línea (0), con su posición si la envía",
    input: z.object({ ...driver, disponibilidad: legacyInt(), latitud: optional(legacyNumber()), longitud: optional(legacyNumber()) }),
    spellings: { disponible: "disponibilidad" },
    caller: "conductor_id",
    document: REPORT_POSITION,
    variables: ({ latitud, longitud, disponibilidad }) => ({ latitud, longitud, disponibilidad }),
    legacyNames: { disponibilidad: "disponible" },
    output: z.object({ disponible: z.boolean(), ubicacion: DRIVER_STATE }),
    respond: ({ cambio_disponibilidad, ...estado }, { disponibilidad }) => ({
      message: availabilityMessage({ ...estado, cambio_disponibilidad }, disponibilidad),
      disponible: estado.disponibilidad === 1,
      ubicacion: estado,
    }),
  }),
  defineRoute({
    method: "POST",
    path: "/conductor/get_solicitudes_pendientes.php",
    summary: "El conductor busca viajes desde su posición: queda en línea y recibe las solicitudes pendientes a menos de 5 km",
    input: z.object({ ...driver, latitud_actual: legacyNumber(), longitud_actual: legacyNumber() }),
    spellings: { latitud: "latitud_actual", longitud: "longitud_actual" },
    // The radius is the service's (5 km: docs/trips.md), not the caller's.
    ignored: ["radio_km"],
    caller: "conductor_id",
    document: operation(
      `mutation LookForTrips($latitud: Float!, $longitud: Float!) {
        lookForTrips(latitud: $latitud, longitud: $longitud) {
          ...LegacyError ... on MutationLookForTripsSuccess { data { ...LegacyRequest } }
        }
      }`,
      SOLICITUD_FRAGMENT,
    ),
    variables: ({ latitud_actual, longitud_actual }) => ({ latitud: latitud_actual, longitud: longitud_actual }),
    legacyNames: { latitud: "latitud_actual", longitud: "longitud_actual" },
    output: REQUESTS,
    respond: (result) => ({ solicitudes: result.data.map(solicitud), total: result.data.length }),
  }),
  driverRead(
    {
      path: "/conductor/get_pending_requests.php",
      summary: "Las solicitudes pendientes a menos de 5 km del conductor en línea",
      output: REQUESTS,
    },
    `query Requests { tripRequests { ...LegacyError ... on QueryTripRequestsSuccess { data { ...LegacyRequest } } } }`,
    (result) => ({ solicitudes: result.data.map(solicitud), total: result.data.length }),
    [SOLICITUD_FRAGMENT],
  ),
  defineRoute({
    method: "POST",
    path: "/conductor/accept_trip_request.php",
    aliases: ["/conductor/aceptar_solicitud.php"],
    summary: "El conductor acepta una solicitud (el viaje del mismo id)",
    input: z.object({ ...driver, solicitud_id: legacyId() }),
    caller: "conductor_id",
    document: operation(
      `mutation Accept($trip_id: Int!) { acceptTrip(trip_id: $trip_id) { ...LegacyError ...LegacyTrip } }`,
      TRIP_FRAGMENT,
    ),
    variables: ({ solicitud_id }) => ({ trip_id: solicitud_id }),
    legacyNames: { trip_id: "solicitud_id" },
    output: z.object({ solicitud_id: z.int(), viaje_id: z.int(), trip: TRIP }),
    respond: (trip) => ({ message: "Viaje aceptado", solicitud_id: trip.id, viaje_id: trip.id, trip }),
  }),
  defineRoute({
    method: "POST",
    path: "/conductor/reject_trip_request.php",
    summary: "El conductor rechaza una solicitud",
    input: z.object({ ...driver, solicitud_id: legacyId(), motivo: optional(legacyText()) }),
    caller: "conductor_id",
    document: operation(`mutation Reject($trip_id: Int!) { rejectTripRequest(trip_id: $trip_id) { ...LegacyError ... on Viaje { id } } }`),
    variables: ({ solicitud_id }) => ({ trip_id: solicitud_id }),
    legacyNames: { trip_id: "solicitud_id" },
    output: z.object({ solicitud_id: z.int() }),
    respond: (trip) => ({ message: "Solicitud rechazada", solicitud_id: trip.id }),
  }),
];
