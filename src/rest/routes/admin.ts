import { z } from "zod";
import { optional } from "../../domain/validation.js";
import {
  USER_TYPE_SPELLINGS,
  legacyChoice,
  legacyFlag,
  legacyId,
  legacyIdOrNone,
  legacyInt,
  legacyNumber,
  legacyText,
} from "../legacy-fields.js";
import { FLAT_DRIVER, PROFILE_FRAGMENT, flatDriver } from "../driver-profile.js";
import { PAGINATION, PENDING_DRIVER, USER, selection } from "../resources.js";
import { APP_TRIP_STATE, APP_USER, appTripState, appUser } from "../app-vocabulary.js";
import { USER_TYPES } from "../../domain/user-types.js";
import { AUDIT_ACTIONS } from "../../domain/audit/audit-actions.js";
import { REVIEW_STATES } from "../../domain/drivers/approval.js";
import { TRIP_STATES, type TripState } from "../../domain/trip-states.js";
import { defineRoute, operation, type GraphQLData, type LegacyRoute } from "../route.js";
import { USER_FRAGMENT } from "./auth.js";

const admin = { admin_id: legacyId() };

const USER_PAGE = z.object({ usuarios: z.array(USER.extend({ fecha_registro: z.iso.datetime() })), pagination: PAGINATION });
const APP_USER_PAGE = USER_PAGE.extend({ usuarios: z.array(APP_USER.extend({ fecha_registro: z.iso.datetime() })) });

const DRIVER_PAGE = z.object({
  conductores: z.array(FLAT_DRIVER),
  pagination: PAGINATION,
  estadisticas: z.object({
    total_conductores: z.int(),
    pendientes_verificacion: z.int(),
    aprobados: z.int(),
    con_documentos_vencidos: z.int(),
  }),
});

/** An audit entry with the names pingo's AuditLogsScreen reads. */
const LOG_PAGE = z.object({
  logs: z.array(
    z.object({
      id: z.int(),
      admin_id: z.int().nullable(),
      via: z.string(),
      accion: z.string(),
      objetivo_tipo: z.string(),
      objetivo_id: z.int(),
      detalles: z.string().nullable(),
      direccion_ip: z.string().nullable(),
      creado_en: z.iso.datetime(),
      descripcion: z.string(),
      nombre: z.string().nullable(),
      apellido: z.string().nullable(),
      email: z.string().nullable(),
      fecha_creacion: z.iso.datetime(),
      ip_address: z.string().nullable(),
      user_agent: z.null(),
    }),
  ),
  pagination: PAGINATION,
});
// The suspend, activate, approve and reject calls of the old interface name no administrator.
const maybeAdmin = { admin_id: optional(legacyId()) };

/**
 * A paged administrator listing; pingo's admin screens read the page under data, so it is there
 * too, in the app's words when `inApp` says how.
 */
const adminPage = <P extends z.ZodObject>({
  filters,
  page,
  toPage,
  inApp,
  ...route
}: Pick<LegacyRoute, "path" | "aliases" | "summary" | "spellings" | "legacyNames" | "document"> & {
  filters: z.ZodRawShape;
  page: P;
  toPage: (result: GraphQLData) => z.output<P>;
  inApp?: { page: z.ZodObject; from: (page: z.output<P>) => Record<string, unknown> };
}) =>
  defineRoute({
    method: "GET",
    ...route,
    input: z.object({ ...admin, page: optional(legacyInt()), per_page: optional(legacyInt()), ...filters }),
    caller: "admin_id",
    variables: ({ admin_id: _caller, ...rest }) => rest,
    output: z.object({ ...page.shape, data: inApp?.page ?? page }),
    respond: (result) => {
      const legacyPage = toPage(result);
      return { ...legacyPage, data: inApp ? inApp.from(legacyPage) : legacyPage };
    },
  });

/** An administrator call answered with only a message, which may say what the result was. */
const adminChange = (
  method: "POST" | "PUT" | "DELETE",
  { path, aliases, summary, ignored }: { path: string; aliases?: string[]; summary: string; ignored?: string[] },
  input: z.ZodObject,
  mutation: string,
  message: string | ((result: GraphQLData) => string),
) =>
  defineRoute({
    method,
    path,
    aliases,
    summary,
    ignored,
    input,
    caller: "admin_id",
    document: operation(mutation),
    variables: ({ admin_id: _caller, ...rest }) => rest,
    output: z.object({}),
    respond: (result) => ({ message: typeof message === "string" ? message : message(result) }),
  });

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

const int = z.int();
const amount = z.number();
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

/** A vehicle type's rates as pingo's PricingManagementScreen reads and sends them back. */
const RATE_SHEET_FIELDS = `
  id tipo_vehiculo tarifa_base tarifa_minima tarifa_maxima costo_por_km costo_por_minuto recargo_hora_pico recargo_nocturno
  recargo_festivo descuento_distancia_larga umbral_km_descuento comision_plataforma comision_metodo_pago distancia_minima
  distancia_maxima tiempo_espera_gratis costo_tiempo_espera hora_pico_inicio_manana hora_pico_fin_manana hora_pico_inicio_tarde
  hora_pico_fin_tarde hora_nocturna_inicio hora_nocturna_fin notas actualizado_en`;

const clockText = z.string();
const PRICING_CONFIG = z.object({
  id: int,
  tipo_vehiculo: z.string(),
  // Every rate is in force: the screen keeps only active ones.
  activo: z.literal(1),
  tarifa_base: amount,
  tarifa_minima: amount,
  tarifa_maxima: z.null(),
  costo_por_km: amount,
  costo_por_minuto: amount,
  recargo_hora_pico: amount,
  recargo_nocturno: amount,
  recargo_festivo: amount,
  descuento_distancia_larga: amount,
  umbral_km_descuento: amount,
  comision_plataforma: amount,
  comision_metodo_pago: amount,
  distancia_minima: amount,
  distancia_maxima: z.null(),
  tiempo_espera_gratis: int,
  costo_tiempo_espera: amount,
  hora_pico_inicio_manana: clockText,
  hora_pico_fin_manana: clockText,
  hora_pico_inicio_tarde: clockText,
  hora_pico_fin_tarde: clockText,
  hora_nocturna_inicio: clockText,
  hora_nocturna_fin: clockText,
  notas: z.string(),
  fecha_actualizacion: z.iso.datetime(),
});

/** What the screen sends back on save: every field it was shown, as numbers, whole minutes or text. */
const SHEET_INPUT = Object.fromEntries(
  Object.entries(PRICING_CONFIG.omit({ id: true, tipo_vehiculo: true, activo: true, fecha_actualizacion: true }).shape).map(
    ([name, schema]) => [
      name,
      optional(name === "tiempo_espera_gratis" ? legacyInt() : schema instanceof z.ZodString ? legacyText() : legacyNumber()),
    ],
  ),
);

const pricingConfig = ({ actualizado_en, ...sheet }: GraphQLData): z.output<typeof PRICING_CONFIG> => ({
  ...sheet,
  activo: 1,
  fecha_actualizacion: actualizado_en,
});

const APP_SETTING = z.object({
  clave: z.string(),
  valor: z.string().nullable(),
  tipo: z.string(),
  categoria: z.string(),
  descripcion: z.string(),
  es_publica: z.union([z.literal(0), z.literal(1)]),
  por_defecto: z.string().nullable(),
  fecha_actualizacion: z.iso.datetime().nullable(),
});

const DOCUMENT_STATES = z.enum([...REVIEW_STATES, "reemplazado"]);
const HISTORY_ENTRY = z.object({
  id: int,
  tipo_documento: z.string(),
  ruta_archivo: z.string(),
  fecha_subida: z.iso.datetime(),
  reemplazado_en: z.iso.datetime().nullable(),
  estado: DOCUMENT_STATES,
  motivo_rechazo: z.string().nullable(),
  numero_documento: z.string().nullable(),
  fecha_vencimiento: z.iso.datetime().nullable(),
});

export const adminRoutes = [
  adminPage({
    path: "/admin/user_management.php",
    aliases: ["/admin/get_users.php"],
    summary: "Usuarios por páginas, buscados por nombre, correo o teléfono y filtrados por tipo y estado",
    filters: {
      search: optional(legacyText()),
      tipo_usuario: optional(legacyChoice(USER_TYPES, USER_TYPE_SPELLINGS)),
      es_activo: optional(legacyFlag()),
    },
    spellings: { limit: "per_page" },
    document: operation(
      `query Users($page: Int, $per_page: Int, $search: String, $tipo_usuario: TipoUsuario, $es_activo: Boolean) {
        users(page: $page, per_page: $per_page, search: $search, tipo_usuario: $tipo_usuario, es_activo: $es_activo) {
          ...LegacyError
          ... on PaginaUsuarios { items { ...LegacyUser } pagination { page per_page total total_pages } }
        }
      }`,
      USER_FRAGMENT,
    ),
    page: USER_PAGE,
    // pingo's UsersManagementScreen also reads each user's fecha_registro.
    toPage: ({ items, pagination }) => ({
      usuarios: items.map((user: { creado_en: string }) => ({ ...user, fecha_registro: user.creado_en })),
      pagination,
    }),
    // pingo's UsersManagementScreen shows an account as active only when es_activo == 1.
    inApp: { page: APP_USER_PAGE, from: ({ usuarios, pagination }) => ({ usuarios: usuarios.map(appUser), pagination }) },
  }),
  defineRoute({
    method: "PUT",
    path: "/admin/user_management.php",
    summary: "Cambia los campos enviados de un usuario",
    input: z.object({
      ...admin,
      user_id: legacyId(),
      nombre: optional(legacyText()),
      apellido: optional(legacyText()),
      telefono: optional(legacyText()),
      tipo_usuario: optional(legacyChoice(USER_TYPES, USER_TYPE_SPELLINGS)),
      es_activo: optional(legacyFlag()),
      es_verificado: optional(legacyFlag()),
      empresa_id: optional(legacyIdOrNone()).meta({
        description: "The driver's company; 0 takes them out of it. Null, as for every field of this call, is not sent.",
      }),
    }),
    caller: "admin_id",
    document: operation(`mutation UpdateUser($user_id: Int!, $input: UserChangesInput!) {
      updateUser(user_id: $user_id, input: $input) { ...LegacyError ... on Usuario { id } }
    }`),
    // The legacy 0 is GraphQL's null: no company.
    variables: ({ admin_id: _caller, user_id, empresa_id, ...input }) => ({
      user_id,
      input: { ...input, empresa_id: empresa_id === 0 ? null : empresa_id },
    }),
    output: z.object({}),
    respond: () => ({ message: "Usuario actualizado" }),
  }),
  adminChange(
    "DELETE",
    { path: "/admin/user_management.php", summary: "Elimina una cuenta: borra los datos de la persona y conserva su id en los viajes" },
    z.object({ ...admin, user_id: legacyId() }),
    `mutation DeleteUser($user_id: Int!) { deleteUser(user_id: $user_id) { ...LegacyError ... on Eliminado { id } } }`,
    "Usuario eliminado",
  ),
  adminChange(
    "POST",
    { path: "/admin/suspender_usuario.php", aliases: ["/admin/suspend_user.php"], summary: "Suspende una cuenta con un motivo" },
    z.object({ ...maybeAdmin, user_id: legacyId(), motivo: legacyText() }),
    `mutation Suspend($user_id: Int!, $motivo: String!) {
      suspendUser(user_id: $user_id, motivo: $motivo) { ...LegacyError ... on Usuario { id } }
    }`,
    "Usuario suspendido",
  ),
  adminChange(
    "POST",
    { path: "/admin/activar_usuario.php", aliases: ["/admin/activate_user.php"], summary: "Reactiva una cuenta suspendida o desactivada" },
    z.object({ ...maybeAdmin, user_id: legacyId() }),
    `mutation Activate($user_id: Int!) { activateUser(user_id: $user_id) { ...LegacyError ... on Usuario { id } } }`,
    "Usuario activado",
  ),
  defineRoute({
    method: "GET",
    path: "/admin/pending_drivers.php",
    aliases: ["/admin/get_pending_drivers.php"],
    summary: "Conductores que esperan revisión, los más antiguos primero",
    input: z.object(admin),
    caller: "admin_id",
    document: operation(`query Pending {
      pendingDrivers {
        ...LegacyError
        ... on QueryPendingDriversSuccess {
          data { conductor_id ${selection(PENDING_DRIVER.omit({ id: true }))} }
        }
      }
    }`),
    variables: () => ({}),
    output: z.object({ drivers: z.array(PENDING_DRIVER) }),
    // An entry's id is the driver's, the one aprobar_conductor and rechazar_conductor take.
    respond: (result) => ({
      drivers: result.data.map(({ conductor_id, ...entry }: { conductor_id: number }) => ({ id: conductor_id, ...entry })),
    }),
  }),
  adminChange(
    "POST",
    // pingo's admin app sends notas, always empty; approval keeps no notes.
    {
      path: "/admin/aprobar_conductor.php",
      aliases: ["/admin/approve_driver.php"],
      summary: "Aprueba a un conductor en revisión",
      ignored: ["notas"],
    },
    z.object({ ...maybeAdmin, conductor_id: legacyId() }),
    `mutation Approve($conductor_id: Int!) {
      approveDriver(conductor_id: $conductor_id) { ...LegacyError ... on ResultadoRevision { repetido } }
    }`,
    (review) => (review.repetido ? "El conductor ya estaba aprobado" : "Conductor aprobado"),
  ),
  adminChange(
    "POST",
    {
      path: "/admin/rechazar_conductor.php",
      aliases: ["/admin/reject_driver.php"],
      summary: "Rechaza a un conductor con un motivo, que se le notifica",
    },
    z.object({ ...maybeAdmin, conductor_id: legacyId(), motivo: legacyText() }),
    `mutation Reject($conductor_id: Int!, $motivo: String!) {
      rejectDriver(conductor_id: $conductor_id, motivo: $motivo) { ...LegacyError ... on ResultadoRevision { repetido } }
    }`,
    (review) => (review.repetido ? "El conductor ya estaba rechazado con ese motivo" : "Conductor rechazado; se le notificó el motivo"),
  ),
  adminPage({
    path: "/admin/get_conductores_documentos.php",
    summary: "Conductores por páginas y por estado de revisión, con sus documentos y lo que les falta",
    filters: { estado_verificacion: optional(legacyChoice(REVIEW_STATES)) },
    document: operation(
      `query Drivers($page: Int, $per_page: Int, $estado_verificacion: EstadoRevision) {
        drivers(page: $page, per_page: $per_page, estado_revision: $estado_verificacion) {
          ...LegacyError
          ... on PaginaConductores {
            items {
              ...LegacyDriverProfile
              usuario { email es_activo es_verificado calificacion total_calificaciones viajes_completados_como_conductor }
            }
            pagination { page per_page total total_pages }
            estadisticas { total_conductores pendientes_verificacion aprobados con_documentos_vencidos }
          }
        }
      }`,
      PROFILE_FRAGMENT,
    ),
    legacyNames: { estado_revision: "estado_verificacion" },
    page: DRIVER_PAGE,
    toPage: ({ items, pagination, estadisticas }) => ({ conductores: items.map(flatDriver), pagination, estadisticas }),
  }),
  adminPage({
    path: "/admin/audit_logs.php",
    summary: "Las acciones de los administradores, las más recientes primero",
    filters: {
      accion: optional(legacyChoice(AUDIT_ACTIONS)),
      fecha_desde: optional(legacyText()),
      fecha_hasta: optional(legacyText()),
    },
    document: operation(`query Audit($page: Int, $per_page: Int, $accion: AccionAuditoria, $fecha_desde: String, $fecha_hasta: String) {
      auditLog(page: $page, per_page: $per_page, accion: $accion, desde: $fecha_desde, hasta: $fecha_hasta) {
        ...LegacyError
        ... on PaginaAuditoria {
          items {
            id admin_id via accion objetivo_tipo objetivo_id detalles descripcion direccion_ip creado_en
            administrador { nombre apellido email }
          }
          pagination { page per_page total total_pages }
        }
      }
    }`),
    legacyNames: { desde: "fecha_desde", hasta: "fecha_hasta" },
    page: LOG_PAGE,
    // pingo's AuditLogsScreen reads the entries as logs, with these names.
    toPage: ({ items, pagination }) => ({
      logs: items.map(({ administrador, ...entry }: Record<string, GraphQLData>) => ({
        ...entry,
        nombre: administrador?.nombre ?? null,
        apellido: administrador?.apellido ?? null,
        email: administrador?.email ?? null,
        fecha_creacion: entry.creado_en,
        ip_address: entry.direccion_ip,
        // Not recorded.
        user_agent: null,
      })),
      pagination,
    }),
  }),
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
  defineRoute({
    method: "GET",
    path: "/admin/get_pricing_configs.php",
    summary: "Las tarifas de cada tipo de vehículo como las ve la pantalla de precios, recargos y comisión en porcentaje",
    input: z.object(maybeAdmin),
    caller: "admin_id",
    document: operation(`query PricingSheets {
      pricingSheets { ...LegacyError ... on QueryPricingSheetsSuccess { data { ${RATE_SHEET_FIELDS} } } }
    }`),
    variables: () => ({}),
    output: z.object({ data: z.array(PRICING_CONFIG) }),
    respond: (result) => ({ message: "Tarifas obtenidas", data: result.data.map(pricingConfig) }),
  }),
  defineRoute({
    method: "POST",
    path: "/admin/update_pricing_config.php",
    summary: "Guarda las tarifas de un tipo de vehículo; un campo que la plataforma fija solo se admite con el valor mostrado",
    input: z.object({
      ...maybeAdmin,
      id: legacyId(),
      ...SHEET_INPUT,
    }),
    caller: "admin_id",
    document: operation(`mutation UpdatePricingSheet($input: HojaTarifasInput!) {
      updatePricingSheet(input: $input) { ...LegacyError ... on HojaTarifas { ${RATE_SHEET_FIELDS} } }
    }`),
    variables: ({ admin_id: _caller, ...input }) => ({ input }),
    output: z.object({ data: PRICING_CONFIG }),
    respond: (sheet) => ({ message: "Tarifas guardadas", data: pricingConfig(sheet) }),
  }),
  defineRoute({
    method: "GET",
    path: "/admin/app_config.php",
    summary: "Los ajustes de la app: con public=1 los públicos, para cualquiera; sin él, todos, solo para administradores",
    input: z.object({ ...maybeAdmin, public: optional(legacyFlag()) }),
    caller: "admin_id",
    document: operation(`query AppSettings($publicas: Boolean) {
      appSettings(publicas: $publicas) {
        ...LegacyError
        ... on QueryAppSettingsSuccess { data { clave valor tipo categoria descripcion es_publica por_defecto actualizado_en } }
      }
    }`),
    variables: (input) => ({ publicas: input.public === true }),
    legacyNames: { publicas: "public" },
    output: z.object({ data: z.object({ config: z.record(z.string(), z.string().nullable()), config_detallada: z.array(APP_SETTING) }) }),
    respond: (result) => ({
      message: "Configuración obtenida",
      data: {
        config: Object.fromEntries(result.data.map(({ clave, valor }: GraphQLData) => [clave, valor])),
        config_detallada: result.data.map(({ es_publica, actualizado_en, ...setting }: GraphQLData) => ({
          ...setting,
          es_publica: es_publica ? 1 : 0,
          fecha_actualizacion: actualizado_en,
        })),
      },
    }),
  }),
  defineRoute({
    method: "PUT",
    path: "/admin/app_config.php",
    summary: "Cambia el valor de un ajuste de la app; los ajustes que existen y su tipo los fija la plataforma",
    input: z.object({
      ...maybeAdmin,
      clave: legacyText(),
      valor: legacyText(),
      tipo: optional(legacyText()),
      categoria: optional(legacyText()),
      descripcion: optional(legacyText()),
      es_publica: optional(legacyFlag()),
    }),
    caller: "admin_id",
    document: operation(`mutation UpdateAppSetting($input: AppSettingInput!) {
      updateAppSetting(input: $input) { ...LegacyError ... on AjusteApp { clave valor } }
    }`),
    variables: ({ admin_id: _caller, ...input }) => ({ input }),
    output: z.object({ data: z.object({ clave: z.string(), valor: z.string().nullable() }) }),
    respond: (setting) => ({ message: "Configuración guardada", data: setting }),
  }),
  defineRoute({
    method: "GET",
    path: "/admin/get_documentos_historial.php",
    summary: "Todas las fotos que un conductor tuvo para sus documentos, las más recientes primero, con su estado",
    input: z.object({ ...maybeAdmin, conductor_id: legacyId() }),
    caller: "admin_id",
    document: operation(`query DocumentHistory($conductor_id: Int!) {
      driverDocumentHistory(conductor_id: $conductor_id) {
        ...LegacyError
        ... on QueryDriverDocumentHistorySuccess {
          data { id tipo_documento url subido_en reemplazado_en estado motivo_rechazo numero_documento fecha_vencimiento }
        }
      }
    }`),
    variables: ({ conductor_id }) => ({ conductor_id }),
    output: z.object({ data: z.object({ historial: z.array(HISTORY_ENTRY), total: int }) }),
    // pingo's ConductorHistorialSheet reads each photo's link as ruta_archivo and its date as fecha_subida.
    respond: (result) => ({
      message: "Historial de documentos obtenido",
      data: {
        historial: result.data.map(({ url, subido_en, ...photo }: GraphQLData) => ({
          ...photo,
          ruta_archivo: url,
          fecha_subida: subido_en,
        })),
        total: result.data.length,
      },
    }),
  }),
];
