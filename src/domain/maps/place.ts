import { z } from "zod";
import { latitude, longitude, missingOr, optional, text } from "../validation.js";

/** A place as every input names it: coordinates, and optionally its address and a reference point. */
export const placeSchema = () =>
  z.object(
    { direccion: optional(text(300)), latitud: latitude(), longitud: longitude(), referencia: optional(text(300)) },
    { error: missingOr("debe ser un objeto con latitud y longitud") },
  );

export type PlaceInput = z.output<ReturnType<typeof placeSchema>>;
