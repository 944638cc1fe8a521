import type { Config } from "../../config.js";
import type { Logger } from "../../domain/deps.js";
import { UpstreamError } from "../../domain/errors.js";
import { colombiaGazetteer } from "../../domain/maps/gazetteer.js";
import { offlineRouter } from "../../domain/maps/offline-router.js";
import type { Geocoder, Maps, RouteProvider } from "../../domain/map-providers.js";
import { nominatimGeocoder } from "./nominatim.js";
import { osrmRouter } from "./osrm.js";

/** Asks `primary` and, when it fails, `fallback`; fails only when both do. */
async function firstThatAnswers<T>(log: Logger, what: string, primary: () => Promise<T>, fallback: () => Promise<T>) {
  try {
    return await primary();
  } catch (error) {
    log.warn({ err: error, what }, "map server failed; using the offline provider");
  }
  try {
    return await fallback();
  } catch (error) {
    log.error({ err: error, what }, "offline map provider failed too");
    throw new UpstreamError("El servicio de mapas no está disponible en este momento");
  }
}

/** A router that asks the server first and the fallback (offline) router when the server fails. */
export const routerWithFallback = (server: RouteProvider, fallback: RouteProvider, log: Logger): RouteProvider => ({
  route: (origin, destination) =>
    firstThatAnswers(
      log,
      "route",
      () => server.route(origin, destination),
      () => fallback.route(origin, destination),
    ),
});

/**
 * A geocoder that asks the server first and the gazetteer when the server fails. A server that
 * finds nothing is not a failure, but the gazetteer may still know the town, so it is asked too.
 */
const geocoderWithFallback = (server: Geocoder, fallback: Geocoder, log: Logger): Geocoder => ({
  geocode: (address) =>
    firstThatAnswers(
      log,
      "geocode",
      async () => (await server.geocode(address)) ?? fallback.geocode(address),
      () => fallback.geocode(address),
    ),
  reverse: (point) =>
    firstThatAnswers(
      log,
      "reverse geocode",
      async () => (await server.reverse(point)) ?? fallback.reverse(point),
      () => fallback.reverse(point),
    ),
  search: (query, near, options) =>
    firstThatAnswers(
      log,
      "place search",
      async () => {
        const found = await server.search(query, near, options);
        return found.length > 0 ? found : fallback.search(query, near, options);
      },
      () => fallback.search(query, near, options),
    ),
});

/** OSRM and Nominatim when configured, each backed by the offline provider; the offline ones alone otherwise. */
export function createMaps(config: Pick<Config, "OSRM_URL" | "NOMINATIM_URL" | "MAPS_TIMEOUT_MS">, log: Logger): Maps {
  return {
    router: config.OSRM_URL ? routerWithFallback(osrmRouter(config.OSRM_URL, config.MAPS_TIMEOUT_MS), offlineRouter, log) : offlineRouter,
    geocoder: config.NOMINATIM_URL
      ? geocoderWithFallback(nominatimGeocoder(config.NOMINATIM_URL, config.MAPS_TIMEOUT_MS), colombiaGazetteer, log)
      : colombiaGazetteer,
  };
}
