import { z } from "zod";
import { optional } from "../../../domain/validation.js";
import { USER_TYPES } from "../../../domain/user-types.js";
import { APP_USER, appUser } from "../../app-vocabulary.js";
import { legacyChoice, legacyFlag, legacyId, legacyIdOrNone, legacyText, USER_TYPE_SPELLINGS } from "../../legacy-fields.js";
import { PAGINATION, USER } from "../../resources.js";
import { defineRoute, operation } from "../../route.js";
import { USER_FRAGMENT } from "../auth.js";
import { admin, adminChange, adminPage, maybeAdmin } from "./calls.js";

const USER_PAGE = z.object({ usuarios: z.array(USER.extend({ fecha_registro: z.iso.datetime() })), pagination: PAGINATION });
const APP_USER_PAGE = USER_PAGE.extend({ usuarios: z.array(APP_USER.extend({ fecha_registro: z.iso.datetime() })) });

/** Accounts: the list, a change, a deletion, suspension and reactivation. */
export const userRoutes = [
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
];
