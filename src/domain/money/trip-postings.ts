import type { Tx } from "../../db/client.js";
import type { Trip } from "../../db/models.js";
import type { Deps } from "../deps.js";
import { driverAccount, type Line, PLATFORM, post } from "./ledger.js";
import { companyAccount } from "./holders.js";
import { collectedByPlatform, type PaymentMethod } from "../payment-methods.js";

/**
 * Posts a completed trip, in the transaction that completes it: the driver earns their net, the
 * platform its commissions, and the driver's company (when the trip was done for one) its share of
 * the platform's commission, payable at once whatever the payment method; the fare was collected by the driver (cash, which they now hold
 * for the platform) or by the platform through its payment provider. Returns the capture's
 * reference: null for cash, or when no provider collects the method any more (the fare then stays
 * owed to the platform in its collection account).
 */
export async function postCompletedTrip(deps: Deps, tx: Tx, trip: Trip, at: Date): Promise<string | null> {
  const method = trip.metodo_pago as PaymentMethod;
  const { id, conductor_id, precio_final, comision_plataforma, comision_metodo_pago, ganancia_conductor } = trip;
  if (
    conductor_id === null ||
    precio_final === null ||
    comision_plataforma === null ||
    comision_metodo_pago === null ||
    ganancia_conductor === null
  ) {
    throw new Error(`trip ${id} is not completed with a price`);
  }
  const driver = driverAccount(conductor_id);
  let referencia: string | null = null;
  let collected: Line;
  if (collectedByPlatform(method)) {
    collected = { account: PLATFORM.collected(method), concepto: "recaudo", monto: -precio_final };
    if (deps.payments?.methods.includes(method)) {
      ({ referencia } = await deps.payments.capture({ viaje_id: id, monto: precio_final, metodo: method }));
    } else {
      deps.log.warn({ viaje_id: id, metodo_pago: method }, "no payment provider collects this method now: the fare is left to collect");
    }
  } else {
    collected = { account: driver, concepto: "efectivo_cobrado", monto: -precio_final };
  }
  await post(tx, at, {
    clave: `viaje:${id}`,
    tipo: "viaje",
    viaje_id: id,
    descripcion: `Viaje ${id} en ${method}`,
    lines: [
      collected,
      { account: driver, concepto: "ganancia", monto: ganancia_conductor },
      // A company's share comes out of the platform's commission.
      { account: PLATFORM.commissions, concepto: "comision", monto: comision_plataforma - (trip.comision_empresa ?? 0) },
      ...(trip.empresa_id !== null && trip.comision_empresa !== null
        ? [{ account: companyAccount(trip.empresa_id), concepto: "comision_empresa" as const, monto: trip.comision_empresa }]
        : []),
      { account: PLATFORM.paymentCommissions, concepto: "comision_metodo", monto: comision_metodo_pago },
    ],
  });
  return referencia;
}
