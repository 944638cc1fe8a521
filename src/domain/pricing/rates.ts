import { z } from "zod";
import type { ReadsOf } from "../../db/planned-reads.js";
import { authorize, type Actor } from "../actor.js";
import { audit } from "../audit/audit.js";
import type { Deps } from "../deps.js";
import { PRICING_RULES } from "./access.js";
import { NotFoundError, ValidationError } from "../errors.js";
import { VEHICLE_TYPES, type VehicleType } from "../service-types.js";
import { number, oneOf, optional, parseInput, type Raw } from "../validation.js";

export function listRates(deps: Deps, actor: Actor) {
  authorize(actor, PRICING_RULES.read);
  return deps.db.pricingRate.findMany({ orderBy: { tipo_vehiculo: "asc" } });
}

export async function rateFor(db: ReadsOf<"pricingRate">, vehicleType: VehicleType) {
  const rate = await db.pricingRate.findUnique({ where: { tipo_vehiculo: vehicleType } });
  // The migrations install a rate for every vehicle type; a missing one is a broken database.
  if (!rate) throw new Error(`No pricing rate for ${vehicleType}`);
  return rate;
}

const pesos = () => optional(number().min(0, "no puede ser negativo").max(10_000_000, "es demasiado alto"));
const share = () => optional(number().min(0, "debe estar entre 0 y 1 (0 % a 100 %)").max(1, "debe estar entre 0 y 1 (0 % a 100 %)"));

const percentage = () => optional(number().min(0, "debe estar entre 0 y 100 (%)").max(100, "debe estar entre 0 y 100 (%)"));

const updateSchema = z.object({
  tipo_vehiculo: oneOf(VEHICLE_TYPES),
  tarifa_base: pesos(),
  precio_km: pesos(),
  precio_minuto: pesos(),
  tarifa_minima: pesos(),
  recargo_pico: share(),
  recargo_nocturno: share(),
  comision_plataforma: percentage(),
  comision_metodo_pago: percentage(),
});

/**
 * An administrator changes some of one vehicle type's rates; the others stay. Commissions apply
 * to trips requested afterwards: each trip keeps the percentages it was requested with.
 */
export async function updateRate(deps: Deps, actor: Actor, input: Raw<typeof updateSchema>) {
  authorize(actor, PRICING_RULES.update);
  const { tipo_vehiculo, ...changes } = parseInput(updateSchema, input);
  return deps.db.$transaction(async (tx) => {
    const rate = await tx.pricingRate.findUnique({ where: { tipo_vehiculo } });
    if (!rate) throw new NotFoundError(`No hay tarifa para el tipo de vehículo ${tipo_vehiculo}`);
    const commissions =
      (changes.comision_plataforma ?? rate.comision_plataforma) + (changes.comision_metodo_pago ?? rate.comision_metodo_pago);
    if (commissions > 100) {
      throw new ValidationError("con la comisión de la plataforma no puede pasar de 100 % del viaje", "comision_metodo_pago");
    }
    await audit(tx, deps, actor, {
      accion: "actualizar_tarifa",
      objetivo_tipo: "tarifa",
      objetivo_id: rate.id,
      detalles: { tipo_vehiculo, ...changes },
    });
    return tx.pricingRate.update({ where: { id: rate.id }, data: changes });
  });
}
