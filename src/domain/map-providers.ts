import type { Point } from "./geo.js";

/** A route as a provider gives it, before the time-of-day model sets its duration. */
export interface RawRoute {
  distanceKm: number;
  /** Minutes without traffic, when the provider knows them (OSRM); the offline router does not. */
  freeFlowMinutes: number | null;
  points: Point[];
  instructions: string | null;
}

export interface Place extends Point {
  direccion: string;
  ciudad: string | null;
  departamento: string | null;
  pais: string;
}

export interface RouteProvider {
  route(origin: Point, destination: Point): Promise<RawRoute>;
}

/** Resolves addresses and points; null means "no such place", an exception means "could not ask". */
export interface Geocoder {
  geocode(address: string): Promise<Place | null>;
  reverse(point: Point): Promise<Place | null>;
  /** Places that match a search, in no particular order (none found: an empty list); a server prefers those near `near`. */
  search(query: string, near: Point, options: { limit: number; radiusKm: number }): Promise<Place[]>;
}

export interface Maps {
  router: RouteProvider;
  geocoder: Geocoder;
}
