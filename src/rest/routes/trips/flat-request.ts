import { z } from "zod";
import { PAYMENT_METHODS } from "../../../domain/payment-methods.js";
import { SERVICE_TYPES, VEHICLE_TYPES } from "../../../domain/service-types.js";
import { optional } from "../../../domain/validation.js";
import { VEHICLE_TYPE_SPELLINGS, legacyChoice, legacyId, legacyNumber, legacyText } from "../../legacy-fields.js";

/* A trip as the app's flat calls describe it (create_trip_request.php, calculate_quote.php): coordinates
   by flat names, or saved places, and the service named directly or by its vehicle type. */

export const FLAT_TRIP_FIELDS = {
  usuario_id: legacyId(),
  // Each place sent as coordinates, or named by one of the passenger's saved places (lugares_favoritos.php).
  latitud_origen: optional(legacyNumber()),
  longitud_origen: optional(legacyNumber()),
  direccion_origen: optional(legacyText()),
  lugar_origen_id: optional(legacyId()),
  latitud_destino: optional(legacyNumber()),
  longitud_destino: optional(legacyNumber()),
  direccion_destino: optional(legacyText()),
  lugar_destino_id: optional(legacyId()),
  // pingo sends the generic "viaje" and names the service through the vehicle type.
  tipo_servicio: optional(z.preprocess((value) => (value === "viaje" ? undefined : value), legacyChoice(SERVICE_TYPES).optional())),
  tipo_vehiculo: optional(legacyChoice(VEHICLE_TYPES, VEHICLE_TYPE_SPELLINGS)),
  metodo_pago: optional(legacyChoice(PAYMENT_METHODS)),
};

type FlatTrip = z.output<z.ZodObject<typeof FLAT_TRIP_FIELDS>>;

/** A place not named by a saved place needs its coordinates: the refinement of a flat call's input. */
export function placesSent(trip: FlatTrip, context: z.RefinementCtx): void {
  const needed = [
    ...(trip.lugar_origen_id === undefined ? (["latitud_origen", "longitud_origen"] as const) : []),
    ...(trip.lugar_destino_id === undefined ? (["latitud_destino", "longitud_destino"] as const) : []),
  ];
  const missing = needed.find((field) => trip[field] === undefined);
  if (missing) context.addIssue({ code: "custom", path: [missing], message: "es obligatorio" });
}

/** A place sent as flat fields; none when its coordinates are not sent (it is then named by a saved place). */
const flatPlace = (latitud?: number, longitud?: number, direccion?: string) =>
  latitud === undefined || longitud === undefined ? undefined : { latitud, longitud, direccion };

/** The flat call as GraphQL's CreateTripInput. */
export const tripInput = (input: FlatTrip & { cotizacion_id?: string }) => ({
  tipo_servicio: input.tipo_servicio,
  tipo_vehiculo: input.tipo_vehiculo,
  metodo_pago: input.metodo_pago,
  origen: flatPlace(input.latitud_origen, input.longitud_origen, input.direccion_origen),
  destino: flatPlace(input.latitud_destino, input.longitud_destino, input.direccion_destino),
  lugar_origen_id: input.lugar_origen_id,
  lugar_destino_id: input.lugar_destino_id,
  cotizacion_id: input.cotizacion_id,
});

/** Where CreateTripInput's errors point, in the flat call's names. */
export const FLAT_NAMES = {
  "origen.latitud": "latitud_origen",
  "origen.longitud": "longitud_origen",
  "destino.latitud": "latitud_destino",
  "destino.longitud": "longitud_destino",
};
