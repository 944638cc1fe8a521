import { listRates, updateRate } from "../../domain/pricing/rates.js";
import { builder } from "../builder.js";
import { CALLER, LOOKUP, RESTRICTED } from "../errors.js";

const PricingRateRef = builder.prismaObject("PricingRate", {
  name: "Tarifa",
  description: "Tarifas en COP de un tipo de vehículo; los recargos son fracciones (0.15 = 15 %)",
  fields: (t) => ({
    tipo_vehiculo: t.exposeString("tipo_vehiculo"),
    tarifa_base: t.exposeFloat("tarifa_base"),
    precio_km: t.exposeFloat("precio_km"),
    precio_minuto: t.exposeFloat("precio_minuto"),
    tarifa_minima: t.exposeFloat("tarifa_minima"),
    recargo_pico: t.exposeFloat("recargo_pico", { description: "Entre semana 07-09 y 17-19" }),
    recargo_nocturno: t.exposeFloat("recargo_nocturno", { description: "22-06" }),
    actualizado_en: t.expose("actualizado_en", { type: "DateTime" }),
  }),
});

const RateChanges = builder.inputType("PricingRateInput", {
  fields: (t) => ({
    tipo_vehiculo: t.string({ required: true }),
    tarifa_base: t.float(),
    precio_km: t.float(),
    precio_minuto: t.float(),
    tarifa_minima: t.float(),
    recargo_pico: t.float(),
    recargo_nocturno: t.float(),
    comision_plataforma: t.float({ description: "% de cada viaje, de 0 a 100; se aplica a los viajes pedidos después" }),
    comision_metodo_pago: t.float({ description: "% adicional de los viajes que cobra la plataforma (billetera digital, tarjeta)" }),
  }),
});

builder.queryFields((t) => ({
  pricingRates: t.field({
    type: [PricingRateRef],
    errors: { types: CALLER },
    resolve: (_root, _args, ctx) => listRates(ctx.deps, ctx.actor),
  }),
}));

builder.mutationFields((t) => ({
  updatePricingRate: t.field({
    type: PricingRateRef,
    description: "Cambia las tarifas enviadas de un tipo de vehículo (solo administradores)",
    errors: { types: [...RESTRICTED, ...LOOKUP] },
    args: { input: t.arg({ type: RateChanges, required: true }) },
    resolve: (_root, { input }, ctx) => updateRate(ctx.deps, ctx.actor, input),
  }),
}));
