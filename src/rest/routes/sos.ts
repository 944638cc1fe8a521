import { z } from "zod";
import { SOS_STATES } from "../../domain/safety/sos-views.js";
import { legacyId, legacyNumber } from "../legacy-fields.js";
import { selection } from "../resources.js";
import { defineRoute, operation } from "../route.js";

/** An SOS as the apps read it back. */
const SOS = z.object({
  id: z.int(),
  viaje_id: z.int(),
  usuario_id: z.int(),
  rol: z.enum(["pasajero", "conductor"]),
  latitud: z.number(),
  longitud: z.number(),
  creado_en: z.iso.datetime(),
  estado: z.enum(SOS_STATES),
  enlace_seguimiento: z.string().nullable(),
});

const SEND = operation(`mutation SendSos($viaje_id: Int!, $latitud: Float!, $longitud: Float!) {
  sendSos(viaje_id: $viaje_id, latitud: $latitud, longitud: $longitud) { ...LegacyError ... on IncidenteSos { ${selection(SOS)} } }
}`);

/**
 * An SOS from a phone during an active trip: the passenger's app names itself with usuario_id, the
 * driver's with conductor_id. These calls never wait in the line of a busy process (server.ts).
 */
const sosRoute = (path: string, caller: "usuario_id" | "conductor_id", who: string) =>
  defineRoute({
    method: "POST",
    path,
    summary:
      `${who} de un viaje activo pide ayuda: la consola de operaciones lo ve en el acto y se escribe a sus contactos de ` +
      "emergencia y a operaciones. Repetido antes de un minuto, o con la misma Idempotency-Key, es el mismo SOS",
    input: z.object({ [caller]: legacyId(), trip_id: legacyId(), latitud: legacyNumber(), longitud: legacyNumber() }),
    spellings: { viaje_id: "trip_id" },
    caller,
    document: SEND,
    variables: ({ trip_id, latitud, longitud }) => ({ viaje_id: trip_id, latitud, longitud }),
    legacyNames: { viaje_id: "trip_id" },
    output: z.object({ incidente: SOS }),
    respond: (incidente) => ({ message: "SOS enviado: operaciones ya fue avisado", incidente }),
  });

export const sosRoutes = [
  sosRoute("/user/sos.php", "usuario_id", "El pasajero"),
  sosRoute("/conductor/sos.php", "conductor_id", "El conductor"),
];

/** The SOS calls' paths: a busy process serves them at once rather than make them wait in line. */
export const SOS_PATHS = new Set(sosRoutes.map((route) => route.path));
