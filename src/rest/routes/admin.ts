import { z } from "zod";
import { optional } from "../../domain/validation.js";
import { legacyFlag, legacyId, legacyInt, legacyText } from "../legacy-fields.js";
import { defineRoute, operation } from "../route.js";
import { USER_FRAGMENT } from "./auth.js";

const admin = { admin_id: legacyId() };
// The suspend, activate, approve and reject calls of the old interface name no administrator.
const maybeAdmin = { admin_id: optional(legacyId()) };

/** An administrator call answered with only a message. */
const adminChange = (method: "POST" | "PUT" | "DELETE", path: string, input: z.ZodObject, mutation: string, message: string) =>
  defineRoute({
    method,
    path,
    input,
    caller: "admin_id",
    document: operation(mutation),
    variables: ({ admin_id: _caller, ...rest }) => rest,
    respond: () => ({ message }),
  });

export const adminRoutes = [
  defineRoute({
    method: "GET",
    path: "/admin/user_management.php",
    input: z.object({
      ...admin,
      page: optional(legacyInt()),
      per_page: optional(legacyInt()),
      search: optional(legacyText()),
      tipo_usuario: optional(legacyText()),
      es_activo: optional(legacyFlag()),
    }),
    caller: "admin_id",
    document: operation(
      `query Users($page: Int, $per_page: Int, $search: String, $tipo_usuario: String, $es_activo: Boolean) {
        users(page: $page, per_page: $per_page, search: $search, tipo_usuario: $tipo_usuario, es_activo: $es_activo) {
          ...LegacyError
          ... on PaginaUsuarios { usuarios { ...LegacyUser } pagination { page per_page total total_pages } }
        }
      }`,
      USER_FRAGMENT,
    ),
    variables: ({ admin_id: _caller, ...filters }) => filters,
    respond: (page) => page,
  }),
  defineRoute({
    method: "PUT",
    path: "/admin/user_management.php",
    input: z.object({
      ...admin,
      user_id: legacyId(),
      nombre: optional(legacyText()),
      apellido: optional(legacyText()),
      telefono: optional(legacyText()),
      tipo_usuario: optional(legacyText()),
      es_activo: optional(legacyFlag()),
      es_verificado: optional(legacyFlag()),
      empresa_id: optional(legacyId()),
    }),
    caller: "admin_id",
    document: operation(`mutation UpdateUser($user_id: Int!, $input: UserChangesInput!) {
      updateUser(user_id: $user_id, input: $input) { ...LegacyError ... on Usuario { id } }
    }`),
    variables: ({ admin_id: _caller, user_id, ...input }) => ({ user_id, input }),
    respond: () => ({ message: "Usuario actualizado" }),
  }),
  adminChange(
    "DELETE",
    "/admin/user_management.php",
    z.object({ ...admin, user_id: legacyId() }),
    `mutation DeleteUser($user_id: Int!) { deleteUser(user_id: $user_id) { ...LegacyError ... on Eliminado { id } } }`,
    "Usuario eliminado",
  ),
  adminChange(
    "POST",
    "/admin/suspender_usuario.php",
    z.object({ ...maybeAdmin, user_id: legacyId(), motivo: legacyText() }),
    `mutation Suspend($user_id: Int!, $motivo: String!) { suspendUser(user_id: $user_id, motivo: $motivo) { ...LegacyError ... on Usuario { id } } }`,
    "Usuario suspendido",
  ),
  adminChange(
    "POST",
    "/admin/activar_usuario.php",
    z.object({ ...maybeAdmin, user_id: legacyId() }),
    `mutation Activate($user_id: Int!) { activateUser(user_id: $user_id) { ...LegacyError ... on Usuario { id } } }`,
    "Usuario activado",
  ),
  defineRoute({
    method: "GET",
    path: "/admin/pending_drivers.php",
    input: z.object(admin),
    caller: "admin_id",
    document: operation(`query Pending {
      pendingDrivers {
        ...LegacyError
        ... on QueryPendingDriversSuccess {
          data {
            conductor_id nombre_completo email telefono fecha_solicitud aprobado
            licencia { numero tipo fecha_expiracion }
            vehiculo { marca modelo placa tipo }
          }
        }
      }
    }`),
    variables: () => ({}),
    // An entry's id is the driver's, the one aprobar_conductor and rechazar_conductor take.
    respond: (result) => ({
      drivers: result.data.map(({ conductor_id, ...entry }: { conductor_id: number }) => ({ id: conductor_id, ...entry })),
    }),
  }),
  adminChange(
    "POST",
    "/admin/aprobar_conductor.php",
    z.object({ ...maybeAdmin, conductor_id: legacyId() }),
    `mutation Approve($conductor_id: Int!) { approveDriver(conductor_id: $conductor_id) { ...LegacyError ... on PerfilConductor { id } } }`,
    "Conductor aprobado",
  ),
  adminChange(
    "POST",
    "/admin/rechazar_conductor.php",
    z.object({ ...maybeAdmin, conductor_id: legacyId(), motivo: legacyText() }),
    `mutation Reject($conductor_id: Int!, $motivo: String!) { rejectDriver(conductor_id: $conductor_id, motivo: $motivo) { ...LegacyError ... on PerfilConductor { id } } }`,
    "Conductor rechazado; se le notificó el motivo",
  ),
];
