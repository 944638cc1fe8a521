import { CUSTOM_PERIOD, earnings, type Period } from "../../domain/drivers/earnings.js";
import { statistics } from "../../domain/drivers/statistics.js";
import { NotFoundError } from "../../domain/errors.js";
import { builder } from "../builder.js";
import { LOOKUP, RESTRICTED } from "../errors.js";
import { aboutDriver } from "./drivers.js";
import { describedEnum } from "./enums.js";

/* What a driver earned, and how they work: the app's earnings and statistics screens, and the console's. */

type EarningsView = Awaited<ReturnType<typeof earnings>>;

const EarningsDay = builder.objectRef<EarningsView["desglose_diario"][number]>("GananciaDia").implement({
  description: "Las ganancias de un día (hora de Bogotá) con viajes completados",
  fields: (t) => ({
    fecha: t.exposeString("fecha", { description: "AAAA-MM-DD" }),
    ganancias: t.exposeInt("ganancias", { description: "COP netos ese día" }),
    viajes: t.exposeInt("viajes", { description: "Viajes completados ese día" }),
  }),
});

const PERIOD_DESCRIPTIONS = {
  hoy: "Hoy, desde la medianoche (Bogotá)",
  semana: "Esta semana, desde el lunes (Bogotá)",
  mes: "Este mes, desde el día 1 (Bogotá)",
  total: "Desde que se registró",
} satisfies Record<Period, string>;

const PeriodEnum = describedEnum("Periodo", "Un periodo de calendario hasta ahora, en hora de Bogotá", PERIOD_DESCRIPTIONS);

const EarningsPeriodEnum = describedEnum("PeriodoGanancias", "El periodo de unas ganancias: uno con nombre, o de un día a otro", {
  ...PERIOD_DESCRIPTIONS,
  [CUSTOM_PERIOD]: "De desde a hasta, ambos días incluidos",
});

const Earnings = builder.objectRef<EarningsView>("Ganancias").implement({
  description: "Ganancias netas de la comisión de la plataforma, en COP",
  fields: (t) => ({
    periodo: t.field({ type: EarningsPeriodEnum, description: "El periodo pedido", resolve: (e) => e.periodo }),
    total_viajes: t.exposeInt("total_viajes", { description: "Viajes completados en el periodo" }),
    ganancia_total: t.exposeFloat("ganancia_total", { description: "COP netos en el periodo" }),
    ganancia_promedio: t.exposeFloat("ganancia_promedio", { description: "COP netos por viaje" }),
    fecha_inicio: t.expose("fecha_inicio", { type: "DateTime", description: "Primer instante del periodo" }),
    fecha_fin: t.expose("fecha_fin", { type: "DateTime", description: "Último instante del periodo" }),
    desglose_diario: t.field({ type: [EarningsDay], description: "Día por día, los días con viajes", resolve: (e) => e.desglose_diario }),
  }),
});

type StatisticsView = Awaited<ReturnType<typeof statistics>>;

const Statistics = builder.objectRef<StatisticsView>("EstadisticasConductor").implement({
  description: "Las cifras de un conductor; días, semanas y meses en hora de Bogotá",
  fields: (t) => ({
    total_viajes: t.exposeInt("total_viajes", { description: "Viajes completados en total" }),
    viajes_hoy: t.exposeInt("viajes_hoy", { description: "Completados hoy" }),
    viajes_semana: t.exposeInt("viajes_semana", { description: "Completados esta semana" }),
    viajes_mes: t.exposeInt("viajes_mes", { description: "Completados este mes" }),
    calificacion_promedio: t.exposeFloat("calificacion_promedio", {
      description: "Promedio de sus calificaciones, de 1 a 5 (0 sin ninguna)",
    }),
    total_calificaciones: t.exposeInt("total_calificaciones", { description: "Cuántas calificaciones recibió" }),
    tasa_aceptacion: t.exposeFloat("tasa_aceptacion", { description: "% de solicitudes mostradas que aceptó" }),
    tasa_completacion: t.exposeFloat("tasa_completacion", { description: "% de viajes aceptados que completó" }),
    tasa_cancelacion: t.exposeFloat("tasa_cancelacion", { description: "% de viajes aceptados que se cancelaron" }),
    tiempo_promedio_respuesta: t.exposeFloat("tiempo_promedio_respuesta", { description: "Segundos" }),
    distancia_total_km: t.exposeFloat("distancia_total_km", { description: "Kilómetros de sus viajes completados" }),
    horas_activo: t.exposeFloat("horas_activo", { description: "En línea, en camino o con pasajero" }),
    horas_hoy: t.exposeFloat("horas_hoy", { description: "Horas activo desde la medianoche (Bogotá)" }),
    ganancias_hoy: t.exposeFloat("ganancias_hoy", { description: "Ganancia neta de los viajes completados hoy, en COP" }),
  }),
});

builder.queryFields((t) => ({
  earnings: t.field({
    type: Earnings,
    description: "Lo que ganó un conductor en un periodo, neto de la comisión",
    errors: { types: [...RESTRICTED, ...LOOKUP] },
    args: {
      ...aboutDriver,
      periodo: t.arg({ type: PeriodEnum, description: "Un periodo con nombre; sin él, los días de desde a hasta" }),
      desde: t.arg.string({ description: "Primer día (AAAA-MM-DD) de un periodo a la medida" }),
      hasta: t.arg.string({ description: "Último día (AAAA-MM-DD), incluido" }),
    },
    resolve: (_root, { conductor_id, ...query }, ctx) => earnings(ctx.deps, ctx.actor, conductor_id, query),
  }),
  driverStatistics: t.field({
    type: Statistics,
    description: "Las cifras de un conductor: viajes, calificación, tasas y horas activo",
    errors: { types: [...RESTRICTED, NotFoundError] },
    args: aboutDriver,
    resolve: (_root, args, ctx) => statistics(ctx.deps, ctx.actor, args.conductor_id),
  }),
}));
