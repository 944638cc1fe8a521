import { FIXED_ON_SHEET, rateSheets, updateRateSheet, type RateSheet } from "../../domain/pricing/rate-sheets.js";
import { builder } from "../builder.js";
import { LOOKUP, RESTRICTED } from "../errors.js";
import type { VehicleType } from "../../domain/service-types.js";
import { VehicleTypeEnum } from "./enums.js";

const FIXED = "Fijo en la plataforma: al guardar, solo se admite el valor mostrado";
const CHANGED = "Lo cambia un administrador";

/** A field's description, saying whether the pricing screen may change it, as the domain decides. */
const about = (field: keyof RateSheet, text: string) => `${text}. ${FIXED_ON_SHEET.has(field) ? FIXED : CHANGED}`;
const COMMISSION = "aplica a los viajes pedidos desde entonces: cada viaje guarda los porcentajes con que se pidió";

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
    tarifa_base: t.exposeFloat("tarifa_base", { description: about("tarifa_base", "COP") }),
    tarifa_minima: t.exposeFloat("tarifa_minima", { description: about("tarifa_minima", "COP; ningún viaje cuesta menos") }),
    costo_por_km: t.exposeFloat("costo_por_km", { description: about("costo_por_km", "COP por kilómetro") }),
    costo_por_minuto: t.exposeFloat("costo_por_minuto", { description: about("costo_por_minuto", "COP por minuto") }),
    recargo_hora_pico: t.exposeFloat("recargo_hora_pico", { description: about("recargo_hora_pico", "% en horas pico") }),
    recargo_nocturno: t.exposeFloat("recargo_nocturno", { description: about("recargo_nocturno", "% de noche") }),
    tarifa_maxima: t.exposeFloat("tarifa_maxima", { nullable: true, description: about("tarifa_maxima", "Sin tope (null)") }),
    recargo_festivo: t.exposeFloat("recargo_festivo", { description: about("recargo_festivo", "%") }),
    descuento_distancia_larga: t.exposeFloat("descuento_distancia_larga", { description: about("descuento_distancia_larga", "%") }),
    umbral_km_descuento: t.exposeFloat("umbral_km_descuento", { description: about("umbral_km_descuento", "km") }),
    comision_plataforma: t.exposeFloat("comision_plataforma", {
      description: about("comision_plataforma", `% de cada viaje que se queda la plataforma; ${COMMISSION}`),
    }),
    comision_metodo_pago: t.exposeFloat("comision_metodo_pago", {
      description: about(
        "comision_metodo_pago",
        `% más sobre los viajes que cobra la plataforma (billetera digital, tarjeta); ${COMMISSION}`,
      ),
    }),
    distancia_minima: t.exposeFloat("distancia_minima", { description: about("distancia_minima", "km") }),
    distancia_maxima: t.exposeFloat("distancia_maxima", { nullable: true, description: about("distancia_maxima", "km; null, sin límite") }),
    tiempo_espera_gratis: t.exposeInt("tiempo_espera_gratis", { description: about("tiempo_espera_gratis", "Minutos") }),
    costo_tiempo_espera: t.exposeFloat("costo_tiempo_espera", { description: about("costo_tiempo_espera", "COP por minuto de espera") }),
    hora_pico_inicio_manana: t.exposeString("hora_pico_inicio_manana", {
      description: about("hora_pico_inicio_manana", "HH:MM:SS, Bogotá, entre semana"),
    }),
    hora_pico_fin_manana: t.exposeString("hora_pico_fin_manana", { description: about("hora_pico_fin_manana", "HH:MM:SS") }),
    hora_pico_inicio_tarde: t.exposeString("hora_pico_inicio_tarde", { description: about("hora_pico_inicio_tarde", "HH:MM:SS") }),
    hora_pico_fin_tarde: t.exposeString("hora_pico_fin_tarde", { description: about("hora_pico_fin_tarde", "HH:MM:SS") }),
    hora_nocturna_inicio: t.exposeString("hora_nocturna_inicio", { description: about("hora_nocturna_inicio", "HH:MM:SS, Bogotá") }),
    hora_nocturna_fin: t.exposeString("hora_nocturna_fin", { description: about("hora_nocturna_fin", "HH:MM:SS") }),
    notas: t.exposeString("notas", { description: about("notas", "Lo que la plataforma aplica, en palabras") }),
    actualizado_en: t.expose("actualizado_en", { type: "DateTime", description: "Cuándo cambió la tarifa por última vez" }),
  }),
});

const RateSheetInput = builder.inputType("HojaTarifasInput", {
  description:
    "Lo que guarda la pantalla de precios: cambia las tarifas y comisiones que se envían; los campos fijos, solo con el valor mostrado",
  fields: (t) => ({
    id: t.int({ required: true, description: "La tarifa" }),
    tarifa_base: t.float({ description: about("tarifa_base", "COP") }),
    tarifa_minima: t.float({ description: about("tarifa_minima", "COP") }),
    costo_por_km: t.float({ description: about("costo_por_km", "COP por kilómetro") }),
    costo_por_minuto: t.float({ description: about("costo_por_minuto", "COP por minuto") }),
    recargo_hora_pico: t.float({ description: about("recargo_hora_pico", "%, de 0 a 100") }),
    recargo_nocturno: t.float({ description: about("recargo_nocturno", "%, de 0 a 100") }),
    tarifa_maxima: t.float({ description: about("tarifa_maxima", "COP; sin tope, se omite") }),
    recargo_festivo: t.float({ description: about("recargo_festivo", "%") }),
    descuento_distancia_larga: t.float({ description: about("descuento_distancia_larga", "%") }),
    umbral_km_descuento: t.float({ description: about("umbral_km_descuento", "km") }),
    comision_plataforma: t.float({ description: about("comision_plataforma", "%, de 0 a 100; con la del método de pago, hasta 100") }),
    comision_metodo_pago: t.float({ description: about("comision_metodo_pago", "%, de 0 a 100; con la de la plataforma, hasta 100") }),
    distancia_minima: t.float({ description: about("distancia_minima", "km") }),
    distancia_maxima: t.float({ description: about("distancia_maxima", "km; 0 es sin límite") }),
    tiempo_espera_gratis: t.int({ description: about("tiempo_espera_gratis", "Minutos") }),
    costo_tiempo_espera: t.float({ description: about("costo_tiempo_espera", "COP por minuto de espera") }),
    hora_pico_inicio_manana: t.string({ description: about("hora_pico_inicio_manana", "HH:MM:SS, Bogotá, entre semana") }),
    hora_pico_fin_manana: t.string({ description: about("hora_pico_fin_manana", "HH:MM:SS") }),
    hora_pico_inicio_tarde: t.string({ description: about("hora_pico_inicio_tarde", "HH:MM:SS") }),
    hora_pico_fin_tarde: t.string({ description: about("hora_pico_fin_tarde", "HH:MM:SS") }),
    hora_nocturna_inicio: t.string({ description: about("hora_nocturna_inicio", "HH:MM:SS, Bogotá") }),
    hora_nocturna_fin: t.string({ description: about("hora_nocturna_fin", "HH:MM:SS") }),
    notas: t.string({ description: about("notas", "Lo que la plataforma aplica, en palabras") }),
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
