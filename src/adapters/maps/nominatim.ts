import { boxAround } from "../../db/nearby.js";
import type { Point } from "../../domain/geo.js";
import type { Geocoder, Place } from "../../domain/map-providers.js";
import { getJson } from "./http.js";

interface NominatimPlace {
  lat: string;
  lon: string;
  display_name: string;
  address?: Record<string, string>;
}

function toPlace(found: NominatimPlace, direccion: string): Place {
  const address = found.address ?? {};
  return {
    latitud: Number(found.lat),
    longitud: Number(found.lon),
    direccion,
    ciudad: address.city ?? address.town ?? address.village ?? address.municipality ?? null,
    departamento: address.state ?? null,
    pais: address.country ?? "Colombia",
  };
}

/** Search and reverse of a Nominatim server (https://nominatim.org/release-docs/latest/api/Overview/). */
export function nominatimGeocoder(baseUrl: string, timeoutMs: number): Geocoder {
  const endpoint = (path: string, params: Record<string, string>) => {
    const url = new URL(path, baseUrl.endsWith("/") ? baseUrl : `${baseUrl}/`);
    url.search = new URLSearchParams({ format: "jsonv2", addressdetails: "1", ...params }).toString();
    return url;
  };
  return {
    async geocode(address: string) {
      const found = (await getJson(endpoint("search", { q: address, countrycodes: "co", limit: "1" }), timeoutMs)) as NominatimPlace[];
      return found[0] ? toPlace(found[0], address.trim()) : null;
    },
    async search(query, near, { limit, radiusKm }) {
      // A box around the caller that Nominatim prefers without keeping to it (bounded=0), as the app's own search does.
      const { dLat, dLng } = boxAround(near, radiusKm);
      const viewbox = [near.longitud - dLng, near.latitud + dLat, near.longitud + dLng, near.latitud - dLat].join(",");
      const params = { q: query, countrycodes: "co", limit: String(limit), viewbox, bounded: "0" };
      const found = (await getJson(endpoint("search", params), timeoutMs)) as NominatimPlace[];
      return found.map((place) => toPlace(place, place.display_name));
    },
    async reverse(point: Point) {
      const found = (await getJson(
        endpoint("reverse", { lat: String(point.latitud), lon: String(point.longitud) }),
        timeoutMs,
      )) as NominatimPlace & { error?: string };
      return found.error || !found.lat ? null : toPlace(found, found.display_name);
    },
  };
}
