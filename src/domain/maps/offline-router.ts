import { round } from "../numbers.js";
import { bearing, compassPoint, greatCircleKm, pathBetween, ROAD_FACTOR, type Point } from "../geo.js";
import type { RawRoute, RouteProvider } from "../map-providers.js";

// One point every 250 m of straight line is enough to draw the route on a phone.
const POINT_SPACING_KM = 0.25;
const MAX_POINTS = 200;

/** Routes without a network: road distance from the great circle, a straight path, one instruction. */
export const offlineRouter: RouteProvider = {
  async route(origin: Point, destination: Point): Promise<RawRoute> {
    const straightKm = greatCircleKm(origin, destination);
    const distanceKm = round(straightKm * ROAD_FACTOR, 2);
    const count = Math.min(MAX_POINTS, Math.max(2, Math.ceil(straightKm / POINT_SPACING_KM) + 1));
    const instructions =
      distanceKm < 0.01
        ? "Ya estás en el destino."
        : `Dirígete hacia el ${compassPoint(bearing(origin, destination))} ` +
          `y recorre unos ${distanceKm.toLocaleString("es-CO")} km hasta el destino.`;
    return { distanceKm, freeFlowMinutes: null, points: pathBetween(origin, destination, count), instructions };
  },
};
