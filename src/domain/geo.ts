import { round } from "./numbers.js";

export interface Point {
  latitud: number;
  longitud: number;
}

const EARTH_RADIUS_KM = 6371.0088;
const toRadians = (degrees: number) => (degrees * Math.PI) / 180;

/** Great-circle (haversine) distance in kilometres. */
export function greatCircleKm(a: Point, b: Point): number {
  const dLat = toRadians(b.latitud - a.latitud);
  const dLng = toRadians(b.longitud - a.longitud);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(toRadians(a.latitud)) * Math.cos(toRadians(b.latitud)) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

/**
 * Streets are longer than the straight line. Ballou, Rahardja and Sakai ("Selected country
 * circuity factors for road travel distance estimation", Transportation Research A 36, 2002)
 * measure road over great-circle ratios of about 1.2 to 1.4; Levinson and El-Geneidy ("The
 * minimum circuity frontier and the journey to work", 2009) find about 1.3 inside cities. 1.3
 * is used for the street grids of Colombian cities.
 */
export const ROAD_FACTOR = 1.3;

export const roadKm = (a: Point, b: Point) => greatCircleKm(a, b) * ROAD_FACTOR;

/** Initial compass bearing from a to b, 0 = north, clockwise, in degrees. */
export function bearing(a: Point, b: Point): number {
  const φ1 = toRadians(a.latitud);
  const φ2 = toRadians(b.latitud);
  const Δλ = toRadians(b.longitud - a.longitud);
  const y = Math.sin(Δλ) * Math.cos(φ2);
  const x = Math.cos(φ1) * Math.sin(φ2) - Math.sin(φ1) * Math.cos(φ2) * Math.cos(Δλ);
  return ((Math.atan2(y, x) * 180) / Math.PI + 360) % 360;
}

const COMPASS = ["norte", "noreste", "este", "sureste", "sur", "suroeste", "oeste", "noroeste"];
export const compassPoint = (degrees: number) => COMPASS[Math.round(degrees / 45) % 8]!;

/** Evenly spaced points from a to b, both included (straight in degrees: fine at city scale). */
export function pathBetween(a: Point, b: Point, count: number): Point[] {
  const steps = Math.max(1, count - 1);
  return Array.from({ length: steps + 1 }, (_, i) => ({
    latitud: round(a.latitud + ((b.latitud - a.latitud) * i) / steps, 6),
    longitud: round(a.longitud + ((b.longitud - a.longitud) * i) / steps, 6),
  }));
}
