import { listRates, updateRate } from "../../domain/pricing/rates.js";
import { builder } from "../builder.js";
import { CALLER, LOOKUP, RESTRICTED } from "../errors.js";
import type { VehicleType } from "../../domain/service-types.js";
import { VehicleTypeEnum } from "./enums.js";

const PricingRateRef = builder.prismaObject("PricingRate", {
  name: "Tarifa",
  description: "Tarifas en COP de un tipo de vehículo; los recargos son fracciones (0.15 = 15 %)",
  fields: (t) => ({
    // One rate per vehicle type, seeded from the domain's list.
    tipo_vehiculo: t.field({ type: VehicleTypeEnum, description: "Su tipo de vehículo", resolve: (r) => r.tipo_vehiculo as VehicleType }),
    tarifa_base: t.exposeFloat("tarifa_base", { description: "COP por pedir el viaje" }),
    precio_km: t.exposeFloat("precio_km", { description: "COP por km" }),
    precio_minuto: t.exposeFloat("precio_minuto", { description: "COP por minuto" }),
    tarifa_minima: t.exposeFloat("tarifa_minima", { description: "COP; ningún viaje cuesta menos" }),
    recargo_pico: t.exposeFloat("recargo_pico", { description: "Entre semana 07-09 y 17-19 (Bogotá)" }),
    recargo_nocturno: t.exposeFloat("recargo_nocturno", { description: "22-06 (Bogotá)" }),
    actualizado_en: t.expose("actualizado_en", { type: "DateTime", description: "Cuándo cambió por última vez" }),
  }),
});

const RateChanges = builder.inputType("PricingRateInput", {
  description: "Las tarifas de un tipo de vehículo que cambian; las que no se envían no cambian",
  fields: (t) => ({
    tipo_vehiculo: t.field({ type: VehicleTypeEnum, required: true, description: "La tarifa de qué tipo de vehículo" }),
    tarifa_base: t.float({ description: "COP por pedir el viaje" }),
    precio_km: t.float({ description: "COP por km" }),
    precio_minuto: t.float({ description: "COP por minuto" }),
    tarifa_minima: t.float({ description: "COP; ningún viaje cuesta menos" }),
    recargo_pico: t.float({ description: "Fracción de 0 a 1 (0.15 = 15 %)" }),
    recargo_nocturno: t.float({ description: "Fracción de 0 a 1" }),
    comision_plataforma: t.float({ description: "% de cada viaje, de 0 a 100; se aplica a los viajes pedidos después" }),
    comision_metodo_pago: t.float({ description: "% adicional de los viajes que cobra la plataforma (billetera digital, tarjeta)" }),
  }),
});

builder.queryFields((t) => ({
  pricingRates: t.field({
    type: [PricingRateRef],
    description: "Las tarifas de cada tipo de vehículo",
    errors: { types: CALLER, dataField: { description: "Una por tipo de vehículo" } },
    resolve: (_root, _args, ctx) => listRates(ctx.deps, ctx.actor),
  }),
}));

builder.mutationFields((t) => ({
  updatePricingRate: t.field({
    type: PricingRateRef,
    description: "Cambia las tarifas enviadas de un tipo de vehículo (solo administradores)",
    errors: { types: [...RESTRICTED, ...LOOKUP] },
    args: { input: t.arg({ type: RateChanges, required: true, description: "Lo que cambia" }) },
    resolve: (_root, { input }, ctx) => updateRate(ctx.deps, ctx.actor, input),
  }),
}));
