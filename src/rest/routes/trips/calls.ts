import { z } from "zod";
import { optional } from "../../../domain/validation.js";
import { legacyId, legacyInt, legacyText } from "../../legacy-fields.js";
import { TRIP, selection } from "../../resources.js";
import { defineRoute, operation } from "../../route.js";

export const TRIP_FRAGMENT = `fragment LegacyTrip on Viaje { ${selection(TRIP)} }`;

/** A call that moves one trip and answers with it. */
export const tripChange = <S extends z.ZodObject>(
  path: string,
  summary: string,
  input: S,
  mutation: string,
  message: string,
  caller?: string,
) =>
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

export const CANCEL_TRIP = `mutation Cancel($trip_id: Int!, $motivo: String!) {
  cancelTrip(trip_id: $trip_id, motivo: $motivo) { ...LegacyError ...LegacyTrip }
}`;

export const rating = z.object({ trip_id: legacyId(), calificacion: legacyInt(), comentario: optional(legacyText()) });
