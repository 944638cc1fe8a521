import { z } from "zod";
import { TRIP_STATES, type TripState } from "../../../domain/trip-states.js";
import { APP_TRIP_STATE, APP_USER, appTripState, appUser } from "../../app-vocabulary.js";
import { defineRoute, operation, type GraphQLData } from "../../route.js";
import { amount, int, maybeAdmin } from "./calls.js";

/*
 * The administrator's dashboard and statistics tabs (dashboard_stats.php), and the older
 * get_stats.php, read the same figures: one query, two shapes.
 */
const STATS = operation(`query Stats {
  platformStats {
    ...LegacyError
    ... on EstadisticasPlataforma {
      generado_en
      administrador { id nombre email telefono tipo_usuario es_activo es_verificado }
      usuarios { total activos pasajeros conductores administradores empresas registros_hoy registros_mes registros_por_dia { fecha cantidad } }
      conductores { en_linea disponibles en_viaje en_revision aprobados por_tipo_vehiculo { tipo_vehiculo en_linea disponibles en_viaje } }
      viajes { total activos hoy por_estado { estado cantidad } hoy_por_estado { estado cantidad } }
      ingresos { hoy { ...Income } mes { ...Income } total { ...Income } }
      actividad_reciente { id accion descripcion creado_en administrador { nombre apellido email } }
    }
  }
}
fragment Income on Ingresos { viajes_completados bruto comision neto }`);

const countsIn = (states: Array<{ estado: TripState; cantidad: number }>) =>
  new Map(states.map(({ estado, cantidad }) => [estado, cantidad]));

const DASHBOARD = z.object({
  admin: z.object({ id: int, tipo_usuario: APP_USER.shape.tipo_usuario, nombre: z.string(), email: z.string(), telefono: z.string() }),
  usuarios: z.object({
    total_usuarios: int,
    total_clientes: int,
    total_conductores: int,
    total_administradores: int,
    total_empresas: int,
    usuarios_activos: int,
    registros_hoy: int,
    registros_mes: int,
  }),
  conductores: z.object({
    en_linea: int,
    disponibles: int,
    en_viaje: int,
    pendientes_revision: int,
    aprobados: int,
    por_tipo_vehiculo: z.array(z.object({ tipo_vehiculo: z.string(), en_linea: int, disponibles: int, en_viaje: int })),
  }),
  solicitudes: z.object({ total_solicitudes: int, completadas: int, canceladas: int, en_proceso: int, solicitudes_hoy: int }),
  viajes_hoy_por_estado: z.record(APP_TRIP_STATE, int),
  ingresos: z.object({
    ingresos_totales: amount,
    ingresos_hoy: amount,
    ingresos_mes: amount,
    comision_total: amount,
    comision_hoy: amount,
    comision_mes: amount,
    ganancia_conductores_total: amount,
    ganancia_conductores_hoy: amount,
    ganancia_conductores_mes: amount,
  }),
  reportes: z.object({ reportes_pendientes: z.literal(0), nota: z.string() }),
  actividades_recientes: z.array(
    z.object({
      id: int,
      accion: z.string(),
      descripcion: z.string(),
      fecha_creacion: z.iso.datetime(),
      nombre: z.string().nullable(),
      apellido: z.string().nullable(),
      email: z.string().nullable(),
    }),
  ),
  registros_ultimos_7_dias: z.array(z.object({ fecha: z.iso.date(), cantidad: int })),
  fecha_actualizacion: z.iso.datetime(),
});

/** The figures as pingo's AdminDashboardTab and StatisticsScreen read them. */
function dashboard(stats: GraphQLData): z.output<typeof DASHBOARD> {
  const { administrador, usuarios, conductores, viajes, ingresos } = stats;
  const all = countsIn(viajes.por_estado);
  const today = countsIn(viajes.hoy_por_estado);
  const { id, tipo_usuario, nombre, email, telefono } = appUser(administrador);
  const { en_revision, ...online } = conductores;
  return {
    admin: { id, tipo_usuario, nombre, email, telefono },
    usuarios: {
      total_usuarios: usuarios.total,
      total_clientes: usuarios.pasajeros,
      total_conductores: usuarios.conductores,
      total_administradores: usuarios.administradores,
      total_empresas: usuarios.empresas,
      usuarios_activos: usuarios.activos,
      registros_hoy: usuarios.registros_hoy,
      registros_mes: usuarios.registros_mes,
    },
    conductores: { ...online, pendientes_revision: en_revision },
    solicitudes: {
      total_solicitudes: viajes.total,
      completadas: all.get("completado") ?? 0,
      canceladas: all.get("cancelado") ?? 0,
      en_proceso: viajes.activos,
      solicitudes_hoy: viajes.hoy,
    },
    viajes_hoy_por_estado: Object.fromEntries(TRIP_STATES.map((estado) => [appTripState(estado), today.get(estado) ?? 0])),
    ingresos: {
      ingresos_totales: ingresos.total.bruto,
      ingresos_hoy: ingresos.hoy.bruto,
      ingresos_mes: ingresos.mes.bruto,
      comision_total: ingresos.total.comision,
      comision_hoy: ingresos.hoy.comision,
      comision_mes: ingresos.mes.comision,
      ganancia_conductores_total: ingresos.total.neto,
      ganancia_conductores_hoy: ingresos.hoy.neto,
      ganancia_conductores_mes: ingresos.mes.neto,
    },
    // The card's "Reportes" opens the audit log: the platform takes no reports about users.
    reportes: { reportes_pendientes: 0, nota: "La plataforma no recibe reportes de usuarios; la tarjeta abre la auditoría" },
    actividades_recientes: stats.actividad_reciente.map(({ administrador: by, creado_en, ...entry }: GraphQLData) => ({
      ...entry,
      fecha_creacion: creado_en,
      nombre: by?.nombre ?? null,
      apellido: by?.apellido ?? null,
      email: by?.email ?? null,
    })),
    registros_ultimos_7_dias: usuarios.registros_por_dia,
    fecha_actualizacion: stats.generado_en,
  };
}

const SYSTEM_STATS = z.object({
  total_usuarios: int,
  total_conductores: int,
  conductores_pendientes: int,
  viajes_hoy: int,
  viajes_total: int,
  ganancia_hoy: amount,
  ganancia_total: amount,
});

export const statsRoutes = [
  defineRoute({
    method: "GET",
    path: "/admin/dashboard_stats.php",
    summary: "Las cifras de la plataforma para el panel del administrador: cuentas, conductores conectados, viajes e ingresos",
    input: z.object(maybeAdmin),
    caller: "admin_id",
    document: STATS,
    variables: () => ({}),
    output: z.object({ data: DASHBOARD }),
    respond: (stats) => ({ message: "Estadísticas obtenidas", data: dashboard(stats) }),
  }),
  defineRoute({
    method: "GET",
    path: "/admin/get_stats.php",
    summary: "Resumen de la plataforma: usuarios, conductores por revisar, viajes y comisión de la plataforma, hoy y en total",
    input: z.object(maybeAdmin),
    caller: "admin_id",
    document: STATS,
    variables: () => ({}),
    output: z.object({ stats: SYSTEM_STATS }),
    // What the platform earns is its commission; the fares themselves are in dashboard_stats.php.
    respond: ({ usuarios, conductores, viajes, ingresos }) => ({
      stats: {
        total_usuarios: usuarios.total,
        total_conductores: usuarios.conductores,
        conductores_pendientes: conductores.en_revision,
        viajes_hoy: viajes.hoy,
        viajes_total: viajes.total,
        ganancia_hoy: ingresos.hoy.comision,
        ganancia_total: ingresos.total.comision,
      },
    }),
  }),
];
