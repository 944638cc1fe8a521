import { z } from "zod";
import { optional } from "../../domain/validation.js";
import { legacyId, legacyInt, legacyNumber } from "../legacy-fields.js";
import { defineRoute, operation } from "../route.js";

export const conductorRoutes = [
  defineRoute({
    method: "POST",
    path: "/conductor/update_location.php",
    input: z.object({
      conductor_id: legacyId(),
      latitud: legacyNumber(),
      longitud: legacyNumber(),
      disponibilidad: optional(legacyInt()),
    }),
    caller: (input) => input.conductor_id,
    document: operation(`mutation Location($latitud: Float!, $longitud: Float!, $disponibilidad: Int) {
      updateDriverLocation(latitud: $latitud, longitud: $longitud, disponibilidad: $disponibilidad) {
        ...LegacyError
        ... on EstadoConductor { conductor_id latitud longitud disponibilidad posicion_en viaje_activo_id }
      }
    }`),
    variables: ({ latitud, longitud, disponibilidad }) => ({ latitud, longitud, disponibilidad }),
    respond: (ubicacion) => ({ message: "Ubicación actualizada", ubicacion }),
  }),
];
