import polyline from "@mapbox/polyline";
import type { Point } from "../../domain/geo.js";
import type { RawRoute, RouteProvider } from "../../domain/map-providers.js";
import { getJson } from "./http.js";

interface OsrmStep {
  name?: string;
  distance: number;
  maneuver: { type: string; modifier?: string; exit?: number };
}
interface OsrmResponse {
  code: string;
  message?: string;
  routes?: Array<{ distance: number; duration: number; geometry: string; legs: Array<{ steps?: OsrmStep[] }> }>;
}

const TURNS: Record<string, string> = {
  left: "a la izquierda",
  right: "a la derecha",
  "slight left": "levemente a la izquierda",
  "slight right": "levemente a la derecha",
  "sharp left": "fuertemente a la izquierda",
  "sharp right": "fuertemente a la derecha",
  straight: "recto",
  uturn: "en U",
};

/** One Spanish sentence per OSRM step. */
function describe(step: OsrmStep): string | null {
  const { type, modifier, exit } = step.maneuver;
  const turn = modifier ? (TURNS[modifier] ?? "") : "";
  const street = step.name ? ` por ${step.name}` : "";
  switch (type) {
    case "depart":
      return `Sal${street}`;
    case "arrive":
      return "Llegas a tu destino";
    case "roundabout":
    case "rotary":
    case "exit roundabout":
    case "exit rotary":
      return `En la glorieta toma la ${exit ?? 1}.ª salida${street}`;
    case "turn":
    case "end of road":
    case "fork":
    case "on ramp":
    case "off ramp":
      return `Gira ${turn}${street}`.replace(/\s+/g, " ").trim();
    case "merge":
      return `Incorpórate${street}`;
    default:
      return step.name ? `Continúa${street}` : null;
  }
}

/** The route service of an OSRM server (https://project-osrm.org/docs/v5.24.0/api/#route-service). */
export function osrmRouter(baseUrl: string, timeoutMs: number): RouteProvider {
  return {
    async route(origin: Point, destination: Point): Promise<RawRoute> {
      const coordinates = `${origin.longitud},${origin.latitud};${destination.longitud},${destination.latitud}`;
      const url = new URL(`route/v1/driving/${coordinates}`, baseUrl.endsWith("/") ? baseUrl : `${baseUrl}/`);
      url.search = new URLSearchParams({ overview: "full", geometries: "polyline", steps: "true" }).toString();
      const answer = (await getJson(url, timeoutMs)) as OsrmResponse;
      const route = answer.routes?.[0];
      if (answer.code !== "Ok" || !route) throw new Error(`OSRM: ${answer.code} ${answer.message ?? ""}`.trim());
      const steps = route.legs.flatMap((leg) => leg.steps ?? []);
      return {
        distanceKm: route.distance / 1000,
        freeFlowMinutes: route.duration / 60,
        points: polyline.decode(route.geometry).map(([latitud, longitud]) => ({ latitud, longitud })),
        instructions: steps.map(describe).filter(Boolean).join(". ") || null,
      };
    },
  };
}
