import { z } from "zod";
import { optional } from "../../../domain/validation.js";
import { legacyText } from "../../legacy-fields.js";
import { QUOTE } from "../../resources.js";
import { defineRoute, operation, type GraphQLData } from "../../route.js";
import { FLAT_NAMES, FLAT_TRIP_FIELDS, placesSent, tripInput } from "./flat-request.js";

/** A quote as the app's next version reads it: the price, until when it holds, and what it is made of. */
const legacyQuote = (fare: GraphQLData) => ({
  cotizacion_id: fare.cotizacion_id,
  precio_estimado: fare.precio_estimado,
  vence_en: fare.vence_en,
  tipo_servicio: fare.tipo_servicio,
  fecha_programada: fare.fecha_programada,
  distancia_km: fare.distancia_km,
  duracion_estimada_minutos: fare.duracion_estimada_minutos,
  desglose: {
    tarifa_base: fare.tarifa_base,
    distancia: fare.por_distancia,
    tiempo: fare.por_tiempo,
    recargo: fare.por_recargo,
    multiplicador_demanda: fare.multiplicador_demanda,
  },
});

export const quoteRoutes = [
  defineRoute({
    method: "POST",
    path: "/pricing/calculate_quote.php",
    summary:
      "El pasajero cotiza un viaje, ahora o programado: precio, ruta y desglose, con una cotizacion_id que sostiene el precio 5 minutos (QUOTE_TTL_S)",
    input: z.object({ ...FLAT_TRIP_FIELDS, fecha_programada: optional(legacyText()) }).superRefine(placesSent),
    // The original backend priced the app's own distance and duration; the service routes the trip itself.
    ignored: ["distancia_km", "duracion_minutos"],
    caller: "usuario_id",
    document: operation(`query Quote($input: CreateTripInput!, $fecha_programada: String) {
      fareEstimate(input: $input, fecha_programada: $fecha_programada) {
        ...LegacyError
        ... on EstimacionTarifa {
          cotizacion_id precio_estimado vence_en tipo_servicio fecha_programada distancia_km duracion_estimada_minutos
          tarifa_base por_distancia por_tiempo por_recargo multiplicador_demanda
        }
      }
    }`),
    variables: (input) => ({ input: tripInput(input), fecha_programada: input.fecha_programada }),
    legacyNames: FLAT_NAMES,
    output: z.object({ cotizacion: QUOTE, data: QUOTE }),
    respond: (fare) => {
      const cotizacion = legacyQuote(fare);
      return { message: "Cotización lista", cotizacion, data: cotizacion };
    },
  }),
];
