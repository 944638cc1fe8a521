import { rateSheets, updateRateSheet, type RateSheet } from "../../domain/pricing/rate-sheets.js";
import { builder } from "../builder.js";
import { LOOKUP, RESTRICTED } from "../errors.js";
import type { VehicleType } from "../../domain/trips/service-types.js";
import { VehicleTypeEnum } from "./enums.js";

const FIXED = "Fijo en la plataforma: al guardar, solo se admite el valor mostrado";

const RateSheetRef = builder.objectRef<RateSheet>("HojaTarifas").implement({
  description:
    "Las tarifas de un tipo de vehículo como las ve la pantalla de precios del administrador: recargos en porcentaje, " +
    "y junto a lo que se cambia, lo que la plataforma fija, con el valor que aplica",
  fields: (t) => ({
    id: t.exposeInt("id", { description: "La tarifa" }),
    tipo_vehiculo: t.field({
      type: VehicleTypeEnum,
      description: "Su tipo de vehículo",
      resolve: (sheet) => sheet.tipo_vehiculo as VehicleType,
    }),
    tarifa_base: t.exposeFloat("tarifa_base", { description: "COP" }),
    tarifa_minima: t.exposeFloat("tarifa_minima", { description: "COP; ningún viaje cuesta menos" }),
    costo_por_km: t.exposeFloat("costo_por_km", { description: "COP por kilómetro" }),
    costo_por_minuto: t.exposeFloat("costo_por_minuto", { description: "COP por minuto" }),
    recargo_hora_pico: t.exposeFloat("recargo_hora_pico", { description: "% en horas pico" }),
    recargo_nocturno: t.exposeFloat("recargo_nocturno", { description: "% de noche" }),
    tarifa_maxima: t.exposeFloat("tarifa_maxima", { nullable: true, description: `Sin tope (null). ${FIXED}` }),
    recargo_festivo: t.exposeFloat("recargo_festivo", { description: `%. ${FIXED}` }),
    descuento_distancia_larga: t.exposeFloat("descuento_distancia_larga", { description: `%. ${FIXED}` }),
    umbral_km_descuento: t.exposeFloat("umbral_km_descuento", { description: `km. ${FIXED}` }),
    comision_plataforma: t.exposeFloat("comision_plataforma", { description: `% de cada viaje. ${FIXED}` }),
    comision_metodo_pago: t.exposeFloat("comision_metodo_pago", { description: `%. ${FIXED}` }),
    distancia_minima: t.exposeFloat("distancia_minima", { description: `km. ${FIXED}` }),
    distancia_maxima: t.exposeFloat("distancia_maxima", { nullable: true, description: `km; null, sin límite. ${FIXED}` }),
    tiempo_espera_gratis: t.exposeInt("tiempo_espera_gratis", { description: `Minutos. ${FIXED}` }),
    costo_tiempo_espera: t.exposeFloat("costo_tiempo_espera", { description: `COP por minuto de espera. ${FIXED}` }),
    hora_pico_inicio_manana: t.exposeString("hora_pico_inicio_manana", { description: `HH:MM:SS, Bogotá, entre semana. ${FIXED}` }),
    hora_pico_fin_manana: t.exposeString("hora_pico_fin_manana", { description: `HH:MM:SS. ${FIXED}` }),
    hora_pico_inicio_tarde: t.exposeString("hora_pico_inicio_tarde", { description: `HH:MM:SS. ${FIXED}` }),
    hora_pico_fin_tarde: t.exposeString("hora_pico_fin_tarde", { description: `HH:MM:SS. ${FIXED}` }),
    hora_nocturna_inicio: t.exposeString("hora_nocturna_inicio", { description: `HH:MM:SS, Bogotá. ${FIXED}` }),
    hora_nocturna_fin: t.exposeString("hora_nocturna_fin", { description: `HH:MM:SS. ${FIXED}` }),
    notas: t.exposeString("notas", { description: `Lo que la plataforma aplica, en palabras. ${FIXED}` }),
    actualizado_en: t.expose("actualizado_en", { type: "DateTime", description: "Cuándo cambió la tarifa por última vez" }),
  }),
});

const RateSheetInput = builder.inputType("HojaTarifasInput", {
  description: "Lo que guarda la pantalla de precios: los campos que se envían; los fijos, solo con el valor mostrado",
  fields: (t) => ({
    id: t.int({ required: true, description: "La tarifa" }),
    tarifa_base: t.float({ description: "COP" }),
    tarifa_minima: t.float({ description: "COP" }),
    costo_por_km: t.float({ description: "COP por kilómetro" }),
    costo_por_minuto: t.float({ description: "COP por minuto" }),
    recargo_hora_pico: t.float({ description: "%, de 0 a 100" }),
    recargo_nocturno: t.float({ description: "%, de 0 a 100" }),
    tarifa_maxima: t.float({ description: FIXED }),
    recargo_festivo: t.float({ description: FIXED }),
    descuento_distancia_larga: t.float({ description: FIXED }),
    umbral_km_descuento: t.float({ description: FIXED }),
    comision_plataforma: t.float({ description: FIXED }),
    comision_metodo_pago: t.float({ description: FIXED }),
    distancia_minima: t.float({ description: FIXED }),
    distancia_maxima: t.float({ description: `${FIXED}; 0 es sin límite` }),
    tiempo_espera_gratis: t.int({ description: FIXED }),
    costo_tiempo_espera: t.float({ description: FIXED }),
    hora_pico_inicio_manana: t.string({ description: FIXED }),
    hora_pico_fin_manana: t.string({ description: FIXED }),
    hora_pico_inicio_tarde: t.string({ description: FIXED }),
    hora_pico_fin_tarde: t.string({ description: FIXED }),
    hora_nocturna_inicio: t.string({ description: FIXED }),
    hora_nocturna_fin: t.string({ description: FIXED }),
    notas: t.string({ description: FIXED }),
  }),
});

builder.queryFields((t) => ({
  pricingSheets: t.field({
    type: [RateSheetRef],
    description:
      "Las tarifas de cada tipo de vehículo como las ve la pantalla de precios, con lo que la plataforma fija (solo administradores)",
    errors: { types: RESTRICTED, dataField: { description: "Una por tipo de vehículo" } },
    resolve: (_root, _args, ctx) => rateSheets(ctx.deps, ctx.actor),
  }),
}));

builder.mutationFields((t) => ({
  updatePricingSheet: t.field({
    type: RateSheetRef,
    description:
      "Guarda la pantalla de precios de un tipo de vehículo: aplica las tarifas que cambiaron (queda en la auditoría) " +
      "y rechaza, nombrándolo, un campo fijo con otro valor (solo administradores)",
    errors: { types: [...RESTRICTED, ...LOOKUP] },
    args: { input: t.arg({ type: RateSheetInput, required: true, description: "Los campos de la pantalla" }) },
    resolve: (_root, { input }, ctx) => updateRateSheet(ctx.deps, ctx.actor, input),
  }),
}));
