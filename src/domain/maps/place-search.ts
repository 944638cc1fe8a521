import { z } from "zod";
import type { Deps } from "../deps.js";
import { round } from "../numbers.js";
import { integer, latitude, longitude, number, optional, parseInput, text, type Raw } from "../validation.js";
import { normalize } from "./gazetteer.js";
import { greatCircleKm } from "../geo.js";
import type { Place } from "../map-providers.js";

/** Places a search answers unless it asks for fewer, and the most it may ask for. */
const DEFAULT_PLACES = 10;
const MAX_PLACES = 20;
/** The area a map server prefers around the caller, and the widest one asked of it. */
const DEFAULT_RADIUS_KM = 25;
const MAX_RADIUS_KM = 100;

const searchSchema = z.object({
  query: text(200).refine((query) => normalize(query).length >= 2, "debe tener al menos 2 letras o números"),
  lat: latitude(),
  lng: longitude(),
  radio_km: optional(number().positive("debe ser mayor que 0")),
  limit: optional(integer().min(1, `debe estar entre 1 y ${MAX_PLACES}`).max(MAX_PLACES, `debe estar entre 1 y ${MAX_PLACES}`)),
});

export type FoundPlace = Place & { distancia_km: number };

/**
 * Places matching a search, nearest to the caller first: from the map server when one is
 * configured (the offline gazetteer of Colombian municipalities stands in when it fails or finds
 * nothing), or from the gazetteer alone. The radius only tells a server where to look first: a
 * destination may lie farther, and the gazetteer knows towns, not streets.
 */
export async function searchPlaces(deps: Deps, input: Raw<typeof searchSchema>): Promise<FoundPlace[]> {
  const { query, lat, lng, radio_km, limit = DEFAULT_PLACES } = parseInput(searchSchema, input);
  const near = { latitud: lat, longitud: lng };
  const radiusKm = Math.min(radio_km ?? DEFAULT_RADIUS_KM, MAX_RADIUS_KM);
  const found = await deps.maps.geocoder.search(query, near, { limit, radiusKm });
  return found
    .map((place) => ({ place, km: greatCircleKm(near, place) }))
    .sort((a, b) => a.km - b.km || a.place.direccion.localeCompare(b.place.direccion))
    .slice(0, limit)
    .map(({ place, km }) => ({ ...place, distancia_km: round(km, 2) }));
}
