import type { Deps } from "../deps.js";
import type { VehicleType } from "../service-types.js";
import type { NearbyQuery } from "../presence/geo-index.js";

/** Trip requests reach drivers within this distance of the pickup (docs/trips.md). */
export const MATCH_RADIUS_KM = 5;

/**
 * Drivers who may be offered a trip of this vehicle type right now, as a query on the geo index:
 * online and free (the only ones it holds), documents in force, a position not yet stale, within
 * reach of the pickup. Approval and account standing were decided when they came online and are
 * decided again whenever either changes.
 */
export function eligibleFor(deps: Deps, vehicleType: VehicleType): NearbyQuery {
  const now = deps.clock.now();
  return {
    tipo_vehiculo: vehicleType,
    now,
    freshSince: new Date(now.getTime() - deps.matching.positionMaxAgeMs),
    radiusKm: MATCH_RADIUS_KM,
  };
}
