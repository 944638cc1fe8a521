import type { VehicleType } from "../service-types.js";

/**
 * Licence categories that allow driving each vehicle type (docs/drivers.md). One table, so that a market
 * with other rules changes it here.
 */
export const LICENCE_CATEGORIES: Record<VehicleType, readonly string[]> = {
  moto: ["A1", "A2"],
  auto: ["B1", "B2", "B3", "C1", "C2", "C3"],
  mototaxi: ["B1", "C1"],
};

export const ALL_CATEGORIES = [...new Set(Object.values(LICENCE_CATEGORIES).flat())].sort();

export const licenceAllows = (category: string, vehicle: VehicleType) => LICENCE_CATEGORIES[vehicle].includes(category);
