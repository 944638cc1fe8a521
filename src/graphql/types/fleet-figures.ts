import { type CompanyFigures, companyFigures } from "../../domain/companies/fleet-figures.js";
import { builder } from "../builder.js";
import { LOOKUP, RESTRICTED } from "../errors.js";
import { CompanySummary } from "./company-summary.js";
import { Interval, TripsInState } from "./platform-stats.js";

type Period = CompanyFigures["hoy"];
type Point = CompanyFigures["serie"]["puntos"][number];

/**
 * The money fields of a company's figures, shared by its periods and its chart points: whole
 * pesos, as Float because a fleet's month passes the 2,147,483,647 an Int can hold.
 */
const moneyFields = {
  bruto: "Suma de los precios finales (pesos enteros)",
  comision: "Las comisiones cobradas: la de la plataforma y la del método de pago (pesos enteros)",
  comision_empresa: "La parte de la empresa en la comisión de la plataforma (pesos enteros)",
  neto_plataforma: "Lo que se quedó la plataforma: las comisiones menos la parte de la empresa (pesos enteros)",
  neto: "Lo que ganaron los conductores, neto de las comisiones (pesos enteros)",
} as const;

export const CompanyIncome = builder.objectRef<Period["ingresos"]>("IngresosEmpresa").implement({
  description:
    "Lo que dejaron los viajes completados de una empresa en un periodo, en COP: neto_plataforma + comision_empresa + neto = bruto",
  fields: (t) => ({
    viajes_completados: t.exposeInt("viajes_completados", { description: "Viajes completados en el periodo" }),
    ...Object.fromEntries(
      Object.entries(moneyFields).map(([name, description]) => [name, t.exposeFloat(name as keyof typeof moneyFields, { description })]),
    ),
  }),
});

const CompanyPeriod = builder.objectRef<Period>("CifrasPeriodoEmpresa").implement({
  description: "Las cifras de una empresa en un periodo: los viajes el día en que se pidieron, el dinero el día en que se completaron",
  fields: (t) => ({
    desde: t.expose("desde", { type: "DateTime", nullable: true, description: "Su primer instante; null: desde el principio" }),
    hasta: t.expose("hasta", { type: "DateTime", description: "Su último instante" }),
    viajes: t.exposeInt("viajes", { description: "Viajes pedidos en el periodo que tomaron sus conductores" }),
    viajes_por_estado: t.field({
      type: [TripsInState],
      description: "Esos viajes, por estado",
      resolve: (period) => period.viajes_por_estado,
    }),
    ingresos: t.field({ type: CompanyIncome, description: "Los viajes completados en el periodo", resolve: (period) => period.ingresos }),
  }),
});

const CompanyPoint = builder.objectRef<Point>("PuntoSerieEmpresa").implement({
  description: "Lo que pasó con los viajes de una empresa en una hora o un día; el dinero en COP, de los completados en él",
  fields: (t) => ({
    inicio: t.expose("inicio", { type: "DateTime", description: "Cuándo empieza" }),
    viajes: t.exposeInt("viajes", { description: "Viajes pedidos" }),
    completados: t.exposeInt("completados", { description: "Viajes completados" }),
    cancelados: t.exposeInt("cancelados", { description: "De los viajes pedidos en él, los que se cancelaron" }),
    ...Object.fromEntries(
      Object.entries(moneyFields).map(([name, description]) => [name, t.exposeFloat(name as keyof typeof moneyFields, { description })]),
    ),
  }),
});

const CompanySeries = builder.objectRef<CompanyFigures["serie"]>("SerieEmpresa").implement({
  description:
    "Las cifras de una empresa hora por hora (un rango de 2 días o menos) o día por día (los últimos 7, o los del rango: " +
    "como máximo sus últimos 31)",
  fields: (t) => ({
    intervalo: t.field({ type: Interval, description: "Cuánto abarca cada punto", resolve: (series) => series.intervalo }),
    puntos: t.field({
      type: [CompanyPoint],
      description: "Los puntos, del más antiguo al más reciente",
      resolve: (series) => series.puntos,
    }),
  }),
});

const CompanyFiguresRef = builder.objectRef<CompanyFigures>("CifrasEmpresa").implement({
  description: "Las cifras de una empresa para sus gestores: sus viajes y lo que dejaron",
  fields: (t) => ({
    empresa: t.field({ type: CompanySummary, description: "La empresa", resolve: (figures) => figures.empresa }),
    generado_en: t.expose("generado_en", { type: "DateTime", description: "Cuándo se contaron" }),
    hoy: t.field({ type: CompanyPeriod, description: "Hoy (Bogotá)", resolve: (figures) => figures.hoy }),
    mes: t.field({ type: CompanyPeriod, description: "Este mes (Bogotá)", resolve: (figures) => figures.mes }),
    periodo: t.field({
      type: CompanyPeriod,
      nullable: true,
      description: "El rango desde-hasta; null si no se pidió rango",
      resolve: (figures) => figures.periodo,
    }),
    serie: t.field({ type: CompanySeries, description: "Las cifras para las gráficas", resolve: (figures) => figures.serie }),
  }),
});

builder.queryFields((t) => ({
  companyFigures: t.field({
    type: CompanyFiguresRef,
    description:
      "Las cifras de la empresa de quien llama (un gestor) o de la que un administrador indica: viajes por estado, lo cobrado, " +
      "la comisión, la parte de la empresa y lo neto de sus conductores, hoy, este mes y en el rango desde-hasta, con una serie para gráficas",
    errors: { types: [...RESTRICTED, ...LOOKUP] },
    args: {
      empresa_id: t.arg.int({ description: "La empresa (solo administradores; un gestor ve la suya)" }),
      desde: t.arg.string({ description: "Primer día del rango (AAAA-MM-DD, Bogotá) o un instante ISO 8601" }),
      hasta: t.arg.string({ description: "Último día del rango, incluido (AAAA-MM-DD, Bogotá) o un instante ISO 8601" }),
    },
    resolve: (_root, args, ctx) => companyFigures(ctx.deps, ctx.actor, args),
  }),
}));
