import { collectedByPlatform, type PaymentMethod } from "../payment-methods.js";

/** The commission percentages a trip is charged, fixed when it is requested. */
export interface CommissionRates {
  porcentaje_comision: number;
  porcentaje_comision_metodo: number;
}

/** The rates of a vehicle type that apply to a trip paid this way: the payment commission only where the platform collects. */
export function commissionRatesFor(
  rate: { comision_plataforma: number; comision_metodo_pago: number },
  method: PaymentMethod,
): CommissionRates {
  return {
    porcentaje_comision: rate.comision_plataforma,
    porcentaje_comision_metodo: collectedByPlatform(method) ? rate.comision_metodo_pago : 0,
  };
}

/** A percentage (two decimals) of whole pesos, rounded to whole pesos; exact in integer arithmetic. */
const percentOf = (pesos: number, percent: number) => Math.round((pesos * Math.round(percent * 100)) / 10_000);

/**
 * A final price in whole pesos split into the platform's commission, the payment commission and
 * the driver's net, which always add up to the price: the payment commission is what the two
 * percentages together round to, less the platform's part. A trip done for a company also says
 * how much of the platform's commission is the company's (whole pesos, never more than it).
 */
export function splitFare(precioFinal: number, rates: CommissionRates & { porcentaje_empresa?: number | null }) {
  const comision_plataforma = percentOf(precioFinal, rates.porcentaje_comision);
  const total = percentOf(precioFinal, rates.porcentaje_comision + rates.porcentaje_comision_metodo);
  const share = rates.porcentaje_empresa ?? null;
  return {
    comision_plataforma,
    comision_metodo_pago: total - comision_plataforma,
    ganancia_conductor: precioFinal - total,
    comision_empresa: share === null ? null : percentOf(comision_plataforma, share),
  };
}
