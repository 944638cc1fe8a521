import { platformStats } from "../../domain/admin/stats.js";
import { ValidationError } from "../../domain/errors.js";
import type { TripState } from "../../domain/trip-states.js";
import { builder } from "../builder.js";
import { RESTRICTED } from "../errors.js";
import { User } from "./accounts.js";
import { AuditEntry } from "./admin.js";
import { describedEnum, VehicleTypeEnum } from "./enums.js";
import { TripStateEnum } from "./trip.js";

type Stats = Awaited<ReturnType<typeof platformStats>>;
type Period = NonNullable<Stats["periodo"]>;

export const TripsInState = builder.objectRef<Stats["viajes"]["por_estado"][number]>("ViajesPorEstado").implement({
  description: "Cuántos viajes hay en un estado",
  fields: (t) => ({
    estado: t.field({ type: TripStateEnum, description: "El estado", resolve: (count) => count.estado as TripState }),
    cantidad: t.exposeInt("cantidad", { description: "Viajes en ese estado" }),
  }),
});

const SignUpsOfDay = builder.objectRef<Stats["usuarios"]["registros_por_dia"][number]>("RegistrosDelDia").implement({
  description: "Cuentas creadas en un día de Bogotá",
  fields: (t) => ({
    fecha: t.exposeString("fecha", { description: "El día, AAAA-MM-DD (Bogotá)" }),
    cantidad: t.exposeInt("cantidad", { description: "Cuentas creadas ese día que siguen existiendo" }),
  }),
});

const Income = builder.objectRef<Stats["ingresos"]["hoy"]>("Ingresos").implement({
  description: "Lo cobrado por los viajes completados en un periodo, en COP",
  fields: (t) => ({
    viajes_completados: t.exposeInt("viajes_completados", { description: "Viajes completados en el periodo" }),
    bruto: t.exposeInt("bruto", { description: "Suma de sus precios finales" }),
    comision: t.exposeInt("comision", { description: "Lo que se quedó la plataforma (su comisión)" }),
    neto: t.exposeInt("neto", { description: "Lo que ganaron los conductores, neto de la comisión" }),
  }),
});

const Users = builder.objectRef<Stats["usuarios"]>("EstadisticasUsuarios").implement({
  description: "Las cuentas que existen (las eliminadas no cuentan), por tipo, y las altas",
  fields: (t) => ({
    total: t.exposeInt("total", { description: "Todas las cuentas" }),
    activos: t.exposeInt("activos", { description: "Cuentas activas y sin suspender" }),
    pasajeros: t.exposeInt("pasajeros", { description: "Cuentas de pasajero" }),
    conductores: t.exposeInt("conductores", { description: "Cuentas de conductor" }),
    administradores: t.exposeInt("administradores", { description: "Cuentas de administrador" }),
    empresas: t.exposeInt("empresas", { description: "Cuentas de empresa" }),
    registros_hoy: t.exposeInt("registros_hoy", { description: "Cuentas creadas hoy (Bogotá)" }),
    registros_mes: t.exposeInt("registros_mes", { description: "Cuentas creadas este mes (Bogotá)" }),
    registros_por_dia: t.field({
      type: [SignUpsOfDay],
      description: "Altas día por día: los últimos 7 días, o los días del rango pedido (como máximo sus últimos 31)",
      resolve: (users) => users.registros_por_dia,
    }),
  }),
});

const DriversOfVehicle = builder.objectRef<Stats["conductores"]["por_tipo_vehiculo"][number]>("ConductoresPorVehiculo").implement({
  description: "Conductores conectados con un tipo de vehículo",
  fields: (t) => ({
    tipo_vehiculo: t.field({ type: VehicleTypeEnum, description: "El tipo de vehículo", resolve: (row) => row.tipo_vehiculo }),
    en_linea: t.exposeInt("en_linea", { description: "Conectados, libres o en un viaje" }),
    disponibles: t.exposeInt("disponibles", { description: "Libres para un viaje, con documentos vigentes" }),
    en_viaje: t.exposeInt("en_viaje", { description: "Con un viaje asignado" }),
  }),
});

const Drivers = builder.objectRef<Stats["conductores"]>("EstadisticasConductores").implement({
  description: "Conductores conectados ahora y solicitudes de conductor",
  fields: (t) => ({
    en_linea: t.exposeInt("en_linea", { description: "Conectados, libres o en un viaje" }),
    disponibles: t.exposeInt("disponibles", { description: "Libres para un viaje, con documentos vigentes" }),
    en_viaje: t.exposeInt("en_viaje", { description: "Con un viaje asignado" }),
    en_revision: t.exposeInt("en_revision", { description: "Solicitudes que esperan a un administrador" }),
    aprobados: t.exposeInt("aprobados", { description: "Conductores aprobados" }),
    por_tipo_vehiculo: t.field({
      type: [DriversOfVehicle],
      description: "Los conectados, por tipo de vehículo",
      resolve: (drivers) => drivers.por_tipo_vehiculo,
    }),
  }),
});

const Trips = builder.objectRef<Stats["viajes"]>("EstadisticasViajes").implement({
  description: "Viajes por estado; cuentan el día en que se pidieron",
  fields: (t) => ({
    total: t.exposeInt("total", { description: "Todos los viajes pedidos" }),
    por_estado: t.field({ type: [TripsInState], description: "Todos, por estado", resolve: (trips) => trips.por_estado }),
    activos: t.exposeInt("activos", { description: "Los que no han terminado: pendientes, aceptados, en ruta y en curso" }),
    hoy: t.exposeInt("hoy", { description: "Pedidos hoy (Bogotá)" }),
    hoy_por_estado: t.field({ type: [TripsInState], description: "Los pedidos hoy, por estado", resolve: (trips) => trips.hoy_por_estado }),
  }),
});

const IncomeByPeriod = builder.objectRef<Stats["ingresos"]>("EstadisticasIngresos").implement({
  description: "Lo cobrado por los viajes, el día en que se completaron (Bogotá)",
  fields: (t) => ({
    hoy: t.field({ type: Income, description: "Viajes completados hoy", resolve: (income) => income.hoy }),
    mes: t.field({ type: Income, description: "Viajes completados este mes", resolve: (income) => income.mes }),
    total: t.field({ type: Income, description: "Todos los viajes completados", resolve: (income) => income.total }),
  }),
});

const StatsPeriod = builder.objectRef<Period>("EstadisticasPeriodo").implement({
  description: "Las cifras del rango pedido",
  fields: (t) => ({
    desde: t.expose("desde", { type: "DateTime", nullable: true, description: "Su primer instante; null: desde el principio" }),
    hasta: t.expose("hasta", { type: "DateTime", description: "Su último instante" }),
    registros: t.exposeInt("registros", { description: "Cuentas creadas en el rango" }),
    viajes: t.exposeInt("viajes", { description: "Viajes pedidos en el rango" }),
    viajes_por_estado: t.field({
      type: [TripsInState],
      description: "Los pedidos en el rango, por estado",
      resolve: (period) => period.viajes_por_estado,
    }),
    ingresos: t.field({ type: Income, description: "Viajes completados en el rango", resolve: (period) => period.ingresos }),
  }),
});

export const Interval = describedEnum("IntervaloSerie", "Cuánto abarca cada punto de una serie", {
  hora: "Una hora",
  dia: "Un día de Bogotá",
} satisfies Record<Stats["serie"]["intervalo"], string>);

const SeriesPoint = builder.objectRef<Stats["serie"]["puntos"][number]>("PuntoSerie").implement({
  description: "Lo que pasó en una hora o un día; el dinero en COP, de los viajes completados en él",
  fields: (t) => ({
    inicio: t.expose("inicio", { type: "DateTime", description: "Cuándo empieza" }),
    viajes: t.exposeInt("viajes", { description: "Viajes pedidos" }),
    completados: t.exposeInt("completados", { description: "Viajes completados" }),
    cancelados: t.exposeInt("cancelados", { description: "Viajes cancelados" }),
    bruto: t.exposeInt("bruto", { description: "Suma de los precios finales de los completados" }),
    comision: t.exposeInt("comision", { description: "Lo que se quedó la plataforma" }),
    neto: t.exposeInt("neto", { description: "Lo que ganaron los conductores" }),
  }),
});

const Series = builder.objectRef<Stats["serie"]>("SerieOperaciones").implement({
  description:
    "Las cifras hora por hora (un rango de 2 días o menos) o día por día (los últimos 7, o los del rango: como máximo sus últimos 31)",
  fields: (t) => ({
    intervalo: t.field({ type: Interval, description: "Cuánto abarca cada punto", resolve: (series) => series.intervalo }),
    puntos: t.field({
      type: [SeriesPoint],
      description: "Los puntos, del más antiguo al más reciente",
      resolve: (series) => series.puntos,
    }),
  }),
});

const PlatformStats = builder.objectRef<Stats>("EstadisticasPlataforma").implement({
  description: "Las cifras de la plataforma para sus administradores",
  fields: (t) => ({
    generado_en: t.expose("generado_en", { type: "DateTime", description: "Cuándo se contaron" }),
    administrador: t.field({ type: User, description: "El administrador que consulta", resolve: (stats) => stats.administrador }),
    usuarios: t.field({ type: Users, description: "Cuentas por tipo y altas", resolve: (stats) => stats.usuarios }),
    conductores: t.field({ type: Drivers, description: "Conductores conectados y solicitudes", resolve: (stats) => stats.conductores }),
    viajes: t.field({ type: Trips, description: "Viajes por estado, en total y hoy", resolve: (stats) => stats.viajes }),
    ingresos: t.field({ type: IncomeByPeriod, description: "Lo cobrado hoy, este mes y en total", resolve: (stats) => stats.ingresos }),
    periodo: t.field({
      type: StatsPeriod,
      nullable: true,
      description: "Las cifras del rango desde-hasta; null si no se pidió rango",
      resolve: (stats) => stats.periodo,
    }),
    serie: t.field({ type: Series, description: "Las cifras para las gráficas", resolve: (stats) => stats.serie }),
    actividad_reciente: t.field({
      type: [AuditEntry],
      description: "Las últimas 10 acciones de los administradores",
      resolve: (stats) => stats.actividad_reciente,
    }),
  }),
});

builder.queryFields((t) => ({
  platformStats: t.field({
    type: PlatformStats,
    description:
      "Las cifras de la plataforma: cuentas, conductores conectados, viajes e ingresos de hoy, del mes y en total; " +
      "con desde o hasta, también las de ese rango (solo administradores)",
    errors: { types: [...RESTRICTED, ValidationError] },
    args: {
      desde: t.arg.string({ description: "Primer día del rango (AAAA-MM-DD, Bogotá) o un instante ISO 8601" }),
      hasta: t.arg.string({ description: "Último día del rango, incluido (AAAA-MM-DD, Bogotá) o un instante ISO 8601" }),
    },
    resolve: (_root, args, ctx) => platformStats(ctx.deps, ctx.actor, args),
  }),
}));
