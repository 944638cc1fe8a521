import { z } from "zod";
import type { Deps } from "../deps.js";
import { NotFoundError } from "../errors.js";
import { latitude, longitude, parseInput, text, type Raw } from "../validation.js";
import { placeSchema } from "./place.js";
import { round } from "../numbers.js";
import type { Point } from "../geo.js";
import type { Place } from "../map-providers.js";
import { travelMinutes, travelSpeed } from "./speed.js";

const routeSchema = z.object({ origin: placeSchema(), destination: placeSchema() });
export type RouteInput = Raw<typeof routeSchema>;

export interface Route {
  origen: Point & { direccion: string | null };
  destino: Point & { direccion: string | null };
  distancia_km: number;
  duracion_minutos: number;
  puntos: Point[];
  instrucciones: string | null;
}

/** The route between two points, its duration for the traffic at `at` (this moment unless said). */
export async function estimateRoute(
  deps: Deps,
  origin: Point,
  destination: Point,
  at: Date = deps.clock.now(),
): Promise<Omit<Route, "origen" | "destino">> {
  const [raw, speed] = await Promise.all([deps.maps.router.route(origin, destination), travelSpeed(deps.db, at)]);
  return {
    distancia_km: round(raw.distanceKm, 2),
    duracion_minutos: travelMinutes(raw.distanceKm, speed, raw.freeFlowMinutes),
    puntos: raw.points,
    instrucciones: raw.instructions,
  };
}

export async function calculateRoute(deps: Deps, input: RouteInput): Promise<Route> {
  const { origin, destination } = parseInput(routeSchema, input);
  const route = await estimateRoute(deps, origin, destination);
  return {
    origen: { ...origin, direccion: origin.direccion ?? null },
    destino: { ...destination, direccion: destination.direccion ?? null },
    ...route,
  };
}

export async function calculateDistance(deps: Deps, input: RouteInput): Promise<number> {
  const { origin, destination } = parseInput(routeSchema, input);
  return round((await deps.maps.router.route(origin, destination)).distanceKm, 2);
}

const addressSchema = z.object({ address: text(300) });
const pointSchema = z.object({ lat: latitude(), lng: longitude() });

export async function geocode(deps: Deps, input: { address: unknown }): Promise<Place> {
  const { address } = parseInput(addressSchema, input);
  const place = await deps.maps.geocoder.geocode(address);
  if (!place) throw new NotFoundError(`No se encontró la dirección '${address}'`);
  return place;
}

export async function reverseGeocode(deps: Deps, input: { lat: unknown; lng: unknown }): Promise<Place> {
  const { lat, lng } = parseInput(pointSchema, input);
  const place = await deps.maps.geocoder.reverse({ latitud: lat, longitud: lng });
  if (!place) throw new NotFoundError(`No se encontró ningún lugar cerca de ${lat}, ${lng}`);
  return place;
}
