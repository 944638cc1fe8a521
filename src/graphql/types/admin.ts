import { activateUser, deleteUser, listUsers, suspendUser, updateUser } from "../../domain/admin/users.js";
import { Deleted, builder } from "../builder.js";
import { callerId, callerOrLegacy } from "../identity.js";
import { User } from "./accounts.js";

const Pagination = builder.objectRef<{ page: number; per_page: number; total: number; total_pages: number }>("Paginacion").implement({
  fields: (t) => ({
    page: t.exposeInt("page"),
    per_page: t.exposeInt("per_page"),
    total: t.exposeInt("total", { description: "Usuarios que cumplen el filtro" }),
    total_pages: t.exposeInt("total_pages"),
  }),
});

type UserRow = Awaited<ReturnType<typeof listUsers>>["usuarios"][number];

const UserPage = builder.objectRef<{ usuarios: UserRow[]; pagination: { page: number; per_page: number; total: number; total_pages: number } }>("PaginaUsuarios").implement({
  fields: (t) => ({
    usuarios: t.field({ type: [User], resolve: (page) => page.usuarios }),
    pagination: t.field({ type: Pagination, resolve: (page) => page.pagination }),
  }),
});

const UserChanges = builder.inputType("UserChangesInput", {
  fields: (t) => ({
    nombre: t.string(),
    apellido: t.string(),
    telefono: t.string(),
    tipo_usuario: t.string({ description: "pasajero, conductor, admin o empresa" }),
    es_activo: t.boolean(),
    es_verificado: t.boolean(),
    empresa_id: t.int(),
  }),
});

builder.queryFields((t) => ({
  users: t.field({
    type: UserPage,
    description: "Usuarios por páginas (solo administradores); search busca en nombre, apellido, correo y teléfono",
    errors: {},
    args: {
      page: t.arg.int({ description: "Desde 1 (por defecto 1)" }),
      per_page: t.arg.int({ description: "De 1 a 100 (por defecto 20)" }),
      search: t.arg.string(),
      tipo_usuario: t.arg.string(),
      es_activo: t.arg.boolean(),
    },
    resolve: (_root, args, ctx) => listUsers(ctx.deps, callerId(ctx), args),
  }),
}));

builder.mutationFields((t) => ({
  updateUser: t.field({
    type: User,
    description: "Cambia los campos enviados de un usuario (solo administradores)",
    errors: {},
    args: { user_id: t.arg.int({ required: true }), input: t.arg({ type: UserChanges, required: true }) },
    resolve: (_root, args, ctx) => updateUser(ctx.deps, callerId(ctx), args.user_id, args.input),
  }),
  deleteUser: t.field({
    type: Deleted,
    description: "Elimina la cuenta para siempre; sus viajes quedan en el historial sin el usuario (solo administradores)",
    errors: {},
    args: { user_id: t.arg.int({ required: true }) },
    resolve: (_root, args, ctx) => deleteUser(ctx.deps, callerId(ctx), args.user_id),
  }),
  suspendUser: t.field({
    type: User,
    errors: {},
    args: { user_id: t.arg.int({ required: true }), motivo: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => suspendUser(ctx.deps, callerOrLegacy(ctx), args),
  }),
  activateUser: t.field({
    type: User,
    errors: {},
    args: { user_id: t.arg.int({ required: true }) },
    resolve: (_root, args, ctx) => activateUser(ctx.deps, callerOrLegacy(ctx), args.user_id),
  }),
}));
