import { z } from "zod";
import { optional } from "../../../domain/validation.js";
import { legacyId, legacyNumber, legacyText } from "../../legacy-fields.js";
import { TRIP } from "../../resources.js";
import { defineRoute, operation } from "../../route.js";
import { CANCEL_TRIP, rating, TRIP_FRAGMENT, tripChange } from "./calls.js";

/** A trip moves along: taken, started, completed, cancelled, rated. */
export const changeRoutes = [
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
    // pin: what the passenger says, when they verify with a PIN.
    z.object({ trip_id: legacyId(), pin: optional(legacyText()) }),
    `mutation Start($trip_id: Int!, $pin: String) { startTrip(trip_id: $trip_id, pin: $pin) { ...LegacyError ...LegacyTrip } }`,
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
];
