import { z } from "zod";
import { optional } from "../../domain/validation.js";
import { USER_TYPE_SPELLINGS, legacyChoice, legacyFlag, legacyId, legacyInt, legacyText } from "../legacy-fields.js";
import { FLAT_DRIVER, PROFILE_FRAGMENT, flatDriver } from "../driver-profile.js";
import { PAGINATION, PENDING_DRIVER, USER, selection } from "../resources.js";
import { APP_USER, appUser } from "../app-vocabulary.js";
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

/** An administrator call answered with only a message. */
const adminChange = (
  method: "POST" | "PUT" | "DELETE",
  { path, aliases, summary, ignored }: { path: string; aliases?: string[]; summary: string; ignored?: string[] },
  input: z.ZodObject,
  mutation: string,
  message: string,
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
    respond: () => ({ message }),
  });

export const adminRoutes = [
  adminPage({
    path: "/admin/user_management.php",
    aliases: ["/admin/get_users.php"],
    summary: "Usuarios por páginas, buscados por nombre, correo o teléfono y filtrados por tipo y estado",
    filters: {
      search: optional(legacyText()),
      tipo_usuario: optional(legacyChoice(USER_TYPE_SPELLINGS)),
      es_activo: optional(legacyFlag()),
    },
    spellings: { limit: "per_page" },
    document: operation(
      `query Users($page: Int, $per_page: Int, $search: String, $tipo_usuario: String, $es_activo: Boolean) {
        users(page: $page, per_page: $per_page, search: $search, tipo_usuario: $tipo_usuario, es_activo: $es_activo) {
          ...LegacyError
          ... on PaginaUsuarios { usuarios { ...LegacyUser } pagination { page per_page total total_pages } }
        }
      }`,
      USER_FRAGMENT,
    ),
    page: USER_PAGE,
    // pingo's UsersManagementScreen also reads each user's fecha_registro.
    toPage: ({ usuarios, pagination }) => ({
      usuarios: usuarios.map((user: { creado_en: string }) => ({ ...user, fecha_registro: user.creado_en })),
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
      tipo_usuario: optional(legacyChoice(USER_TYPE_SPELLINGS)),
      es_activo: optional(legacyFlag()),
      es_verificado: optional(legacyFlag()),
      empresa_id: optional(legacyId()),
    }),
    caller: "admin_id",
    document: operation(`mutation UpdateUser($user_id: Int!, $input: UserChangesInput!) {
      updateUser(user_id: $user_id, input: $input) { ...LegacyError ... on Usuario { id } }
    }`),
    variables: ({ admin_id: _caller, user_id, ...input }) => ({ user_id, input }),
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
    `mutation Approve($conductor_id: Int!) { approveDriver(conductor_id: $conductor_id) { ...LegacyError ... on PerfilConductor { id } } }`,
    "Conductor aprobado",
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
      rejectDriver(conductor_id: $conductor_id, motivo: $motivo) { ...LegacyError ... on PerfilConductor { id } }
    }`,
    "Conductor rechazado; se le notificó el motivo",
  ),
  adminPage({
    path: "/admin/get_conductores_documentos.php",
    summary: "Conductores por páginas y por estado de revisión, con sus documentos y lo que les falta",
    filters: { estado_verificacion: optional(legacyText()) },
    document: operation(
      `query Drivers($page: Int, $per_page: Int, $estado_verificacion: String) {
        drivers(page: $page, per_page: $per_page, estado_revision: $estado_verificacion) {
          ...LegacyError
          ... on PaginaConductores {
            conductores {
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
    toPage: ({ conductores, pagination, estadisticas }) => ({ conductores: conductores.map(flatDriver), pagination, estadisticas }),
  }),
  adminPage({
    path: "/admin/audit_logs.php",
    summary: "Las acciones de los administradores, las más recientes primero",
    filters: { accion: optional(legacyText()), fecha_desde: optional(legacyText()), fecha_hasta: optional(legacyText()) },
    document: operation(`query Audit($page: Int, $per_page: Int, $accion: String, $fecha_desde: String, $fecha_hasta: String) {
      auditLog(page: $page, per_page: $per_page, accion: $accion, desde: $fecha_desde, hasta: $fecha_hasta) {
        ...LegacyError
        ... on PaginaAuditoria {
          entradas {
            id admin_id via accion objetivo_tipo objetivo_id detalles direccion_ip creado_en administrador { nombre apellido email }
          }
          pagination { page per_page total total_pages }
        }
      }
    }`),
    legacyNames: { desde: "fecha_desde", hasta: "fecha_hasta" },
    page: LOG_PAGE,
    // pingo's AuditLogsScreen reads the entries as logs, with these names.
    toPage: ({ entradas, pagination }) => ({
      logs: entradas.map(({ administrador, ...entry }: Record<string, GraphQLData>) => ({
        ...entry,
        descripcion: `${entry.accion} ${entry.objetivo_tipo} ${entry.objetivo_id}`,
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
];
