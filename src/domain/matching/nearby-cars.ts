import { z } from "zod";
import type { Deps } from "../deps.js";
import { greatCircleKm, type Point } from "../geo.js";
import { round } from "../numbers.js";
import { VEHICLE_TYPES, type VehicleType } from "../service-types.js";
import { latitude, longitude, number, oneOf, optional, parseInput, type Raw } from "../validation.js";
import { MATCH_RADIUS_KM, eligibleFor } from "./eligibility.js";

/** The most cars shown: enough for a sense of how many are around, not a list of drivers. */
const MAX_CARS = 10;
/**
 * Positions are shown as the centre of their cell in a grid of 0.003° (about 330 m in Colombia),
 * the same grid for every caller, so that asking from many places reveals nothing finer.
 */
const GRID_DEGREES = 0.003;
/** No position is farther than this from its cell's centre (half a cell's diagonal is about 0.24 km). */
const SNAP_MARGIN_KM = 0.25;

const nearbySchema = z.object({
  latitud: latitude(),
  longitud: longitude(),
  tipo_vehiculo: oneOf(VEHICLE_TYPES),
  radio_km: optional(number().positive("debe ser mayor que 0")),
});

export interface NearbyCar extends Point {
  tipo_vehiculo: VehicleType;
  /** From the caller's point to the car's approximate position, to the nearest 100 m. */
  distancia_km: number;
}

const snap = (degrees: number) => round((Math.floor(degrees / GRID_DEGREES) + 0.5) * GRID_DEGREES, 4);

/**
 * The cars around a point that could take a trip of this vehicle type now (approved, online, free,
 * documents in force, a fresh position), nearest first, within the radius asked (at most the
 * service's 5 km). Anyone may ask, so a car is its vehicle type and an approximate position only:
 * no driver, no exact position. Whether a car is in reach, and how far it is, are measured from
 * its approximate position too, so that moving the point or the radius cannot find the exact one.
 */
export function nearbyCars(deps: Deps, input: Raw<typeof nearbySchema>): NearbyCar[] {
  const { latitud, longitud, tipo_vehiculo, radio_km } = parseInput(nearbySchema, input);
  const center = { latitud, longitud };
  const radiusKm = Math.min(radio_km ?? MATCH_RADIUS_KM, MATCH_RADIUS_KM);
  const { presence } = deps.matching;
  const query = { ...eligibleFor(deps, tipo_vehiculo), radiusKm: radiusKm + SNAP_MARGIN_KM, limit: 2 * MAX_CARS };
  return presence.index
    .nearest(center, query)
    .flatMap((conductorId) => {
      const position = presence.get(conductorId)?.posicion;
      if (!position) return [];
      const shown = { latitud: snap(position.latitud), longitud: snap(position.longitud) };
      const km = greatCircleKm(center, shown);
      return km <= radiusKm ? [{ shown, km }] : [];
    })
    .sort((a, b) => a.km - b.km)
    .slice(0, MAX_CARS)
    .map(({ shown, km }) => ({ tipo_vehiculo, ...shown, distancia_km: round(km, 1) }));
}
