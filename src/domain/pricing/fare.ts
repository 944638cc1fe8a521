import type { PricingRate } from "../../db/models.js";
import { periodAt } from "../maps/speed.js";
import { round } from "../numbers.js";

type Surcharge = "pico" | "nocturno" | null;

export interface Fare {
  tarifa_base: number;
  por_distancia: number;
  por_tiempo: number;
  recargo: Surcharge;
  porcentaje_recargo: number;
  /** Pesos the surcharge adds to base, distance and time. */
  por_recargo: number;
  tarifa_minima: number;
  multiplicador_demanda: number;
  precio_estimado: number;
}

/** Requests per available driver at which the demand multiplier reaches its cap: 1 + (3 - 1) / 2 = 2. */
const FULL_DEMAND_RATIO = 3;

/**
 * Demand pricing: 1.0 while there are at least as many available drivers as pending requests
 * near the pickup, rising by half for every extra request per driver, capped at 2.0.
 */
export function demandMultiplier(pendingRequests: number, availableDrivers: number): number {
  const ratio = pendingRequests / Math.max(1, availableDrivers);
  return Math.min(2, Math.max(1, 1 + (ratio - 1) / 2));
}

/**
 * The most pending requests worth counting for `demandMultiplier` with this many drivers: past
 * it the multiplier is at its cap, so a count may stop there and cost no more with a longer queue.
 */
export const demandCountLimit = (availableDrivers: number): number => FULL_DEMAND_RATIO * Math.max(1, availableDrivers);

/** Fares are charged in whole hundreds of pesos. */
const toHundreds = (pesos: number) => Math.round(pesos / 100) * 100;

/**
 * Base fare plus distance and time, a peak (weekdays 07-09 and 17-19) or night (22-06)
 * surcharge, never below the minimum fare, times the demand multiplier. America/Bogota time.
 */
export function computeFare(rate: PricingRate, trip: { distanceKm: number; minutes: number; at: Date; demand: number }): Fare {
  const period = periodAt(trip.at);
  const recargo: Surcharge = period === "peak" ? "pico" : period === "night" ? "nocturno" : null;
  const porcentaje = recargo === "pico" ? rate.recargo_pico : recargo === "nocturno" ? rate.recargo_nocturno : 0;
  const porDistancia = trip.distanceKm * rate.precio_km;
  const porTiempo = trip.minutes * rate.precio_minuto;
  const parts = rate.tarifa_base + porDistancia + porTiempo;
  const beforeDemand = Math.max(rate.tarifa_minima, parts * (1 + porcentaje));
  return {
    tarifa_base: rate.tarifa_base,
    por_distancia: Math.round(porDistancia),
    por_tiempo: Math.round(porTiempo),
    recargo,
    porcentaje_recargo: porcentaje,
    por_recargo: Math.round(parts * porcentaje),
    tarifa_minima: rate.tarifa_minima,
    multiplicador_demanda: round(trip.demand),
    precio_estimado: toHundreds(beforeDemand * trip.demand),
  };
}
