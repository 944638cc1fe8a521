import { AUDIT_ACTIONS, AUDIT_TARGETS, auditLog } from "../../domain/admin/audit.js";
import { describeEntry } from "../../domain/admin/audit-descriptions.js";
import { activateUser, deleteUser, listUsers, suspendUser, updateUser } from "../../domain/admin/users.js";
import { listDrivers } from "../../domain/admin/drivers.js";
import { reviewDocumentHistory } from "../../domain/admin/document-review.js";
import { REVIEW_STATES } from "../../domain/drivers/approval.js";
import { InvalidStateError, NotFoundError, ValidationError } from "../../domain/errors.js";
import { Deleted, builder } from "../builder.js";
import { LOOKUP, RESTRICTED, RESTRICTED_TRUSTING_LEGACY } from "../errors.js";
import { DocumentPhoto } from "./document-history.js";
import { DriverProfile } from "./drivers.js";
import { User } from "./accounts.js";

export interface PaginationView {
  page: number;
  per_page: number;
  total: number;
  total_pages: number;
}

export const Pagination = builder.objectRef<PaginationView>("Paginacion").implement({
  fields: (t) => ({
    page: t.exposeInt("page"),
    per_page: t.exposeInt("per_page"),
    total: t.exposeInt("total", { description: "Registros que cumplen el filtro" }),
    total_pages: t.exposeInt("total_pages"),
  }),
});

type UserRow = Awaited<ReturnType<typeof listUsers>>["usuarios"][number];

const UserPage = builder.objectRef<{ usuarios: UserRow[]; pagination: PaginationView }>("PaginaUsuarios").implement({
  fields: (t) => ({
    usuarios: t.field({ type: [User], resolve: (page) => page.usuarios }),
    pagination: t.field({ type: Pagination, resolve: (page) => page.pagination }),
  }),
});

type AuditRow = Awaited<ReturnType<typeof auditLog>>["entradas"][number];

const AuditAdmin = builder.objectRef<NonNullable<AuditRow["administrador"]>>("AdministradorAuditoria").implement({
  fields: (t) => ({
    id: t.exposeInt("id"),
    nombre: t.exposeString("nombre"),
    apellido: t.exposeString("apellido"),
    email: t.exposeString("email"),
  }),
});

export const AuditEntry = builder.prismaObject("AuditEntry", {
  name: "EntradaAuditoria",
  description: "Una acción de un administrador",
  fields: (t) => ({
    id: t.exposeInt("id"),
    admin_id: t.exposeInt("admin_id", { nullable: true, description: "null si una llamada heredada no nombró administrador" }),
    via: t.exposeString("via", { description: "token, o ids (el id que envió una llamada heredada)" }),
    accion: t.exposeString("accion", { description: AUDIT_ACTIONS.join(", ") }),
    objetivo_tipo: t.exposeString("objetivo_tipo", { description: AUDIT_TARGETS.join(", ") }),
    objetivo_id: t.exposeInt("objetivo_id"),
    detalles: t.exposeString("detalles", { nullable: true, description: "JSON: los campos enviados o el motivo" }),
    descripcion: t.string({ description: "La acción en una frase", resolve: (entry) => describeEntry(entry) }),
    direccion_ip: t.exposeString("direccion_ip", { nullable: true }),
    creado_en: t.expose("creado_en", { type: "DateTime" }),
    administrador: t.field({
      type: AuditAdmin,
      nullable: true,
      // Entries only ever come from auditLog, which attaches their administrator.
      resolve: (entry) => (entry as AuditRow).administrador,
    }),
  }),
});

const AuditPage = builder.objectRef<{ entradas: AuditRow[]; pagination: PaginationView }>("PaginaAuditoria").implement({
  fields: (t) => ({
    entradas: t.field({ type: [AuditEntry], resolve: (page) => page.entradas }),
    pagination: t.field({ type: Pagination, resolve: (page) => page.pagination }),
  }),
});

type DriverPageView = Awaited<ReturnType<typeof listDrivers>>;

const DriverCounts = builder.objectRef<DriverPageView["estadisticas"]>("ConteoConductores").implement({
  fields: (t) => ({
    total_conductores: t.exposeInt("total_conductores"),
    pendientes_verificacion: t.exposeInt("pendientes_verificacion", { description: "En revisión" }),
    aprobados: t.exposeInt("aprobados"),
    con_documentos_vencidos: t.exposeInt("con_documentos_vencidos"),
  }),
});

const DriverPage = builder.objectRef<DriverPageView>("PaginaConductores").implement({
  fields: (t) => ({
    conductores: t.field({ type: [DriverProfile], resolve: (page) => page.conductores }),
    pagination: t.field({ type: Pagination, resolve: (page) => page.pagination }),
    estadisticas: t.field({ type: DriverCounts, resolve: (page) => page.estadisticas }),
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

/** Which page of a listing, as spec section 8 has it. */
export const pageArgs = builder.args((t) => ({
  page: t.int({ description: "Desde 1 (por defecto 1)" }),
  per_page: t.int({ description: "De 1 a 100 (por defecto 20)" }),
}));

builder.queryFields((t) => ({
  users: t.field({
    type: UserPage,
    description: "Usuarios por páginas (solo administradores); search busca en nombre, apellido, correo y teléfono",
    errors: { types: [...RESTRICTED, ValidationError] },
    args: {
      ...pageArgs,
      search: t.arg.string(),
      tipo_usuario: t.arg.string(),
      es_activo: t.arg.boolean(),
    },
    resolve: (_root, args, ctx) => listUsers(ctx.deps, ctx.actor, args),
  }),
  drivers: t.field({
    type: DriverPage,
    description: "Conductores por páginas y por estado de revisión, las solicitudes más antiguas primero (solo administradores)",
    errors: { types: [...RESTRICTED, ValidationError] },
    args: { ...pageArgs, estado_revision: t.arg.string({ description: `${REVIEW_STATES.join(", ")}; sin él, todos` }) },
    resolve: (_root, args, ctx) => listDrivers(ctx.deps, ctx.actor, args),
  }),
  driverDocumentHistory: t.field({
    type: [DocumentPhoto],
    description: "Las fotos que un conductor tuvo para sus documentos, para la pantalla de revisión (solo administradores)",
    errors: { types: [...RESTRICTED, NotFoundError] },
    args: { conductor_id: t.arg.int({ required: true, description: "El conductor" }) },
    resolve: (_root, args, ctx) => reviewDocumentHistory(ctx.deps, ctx.actor, args.conductor_id),
  }),
  auditLog: t.field({
    type: AuditPage,
    description: "Las acciones de los administradores, las más recientes primero (solo administradores)",
    errors: { types: [...RESTRICTED, ValidationError] },
    args: {
      ...pageArgs,
      accion: t.arg.string({ description: AUDIT_ACTIONS.join(", ") }),
      admin_id: t.arg.int(),
      objetivo_tipo: t.arg.string({ description: AUDIT_TARGETS.join(", ") }),
      objetivo_id: t.arg.int(),
      desde: t.arg.string({ description: "Fecha ISO 8601; un día sin hora empieza a las 00:00 en Bogotá" }),
      hasta: t.arg.string({ description: "Fecha ISO 8601; un día sin hora incluye todo ese día" }),
    },
    resolve: (_root, args, ctx) => auditLog(ctx.deps, ctx.actor, args),
  }),
}));

builder.mutationFields((t) => ({
  updateUser: t.field({
    type: User,
    description: "Cambia los campos enviados de un usuario (solo administradores)",
    errors: { types: [...RESTRICTED, ...LOOKUP] },
    args: { user_id: t.arg.int({ required: true }), input: t.arg({ type: UserChanges, required: true }) },
    resolve: (_root, args, ctx) => updateUser(ctx.deps, ctx.actor, args.user_id, args.input),
  }),
  deleteUser: t.field({
    type: Deleted,
    description: "Elimina la cuenta para siempre; sus viajes quedan en el historial sin el usuario (solo administradores)",
    errors: { types: [...RESTRICTED, ...LOOKUP, InvalidStateError] },
    args: { user_id: t.arg.int({ required: true }) },
    resolve: (_root, args, ctx) => deleteUser(ctx.deps, ctx.actor, args.user_id),
  }),
  suspendUser: t.field({
    type: User,
    errors: { types: [...RESTRICTED_TRUSTING_LEGACY, ...LOOKUP] },
    args: { user_id: t.arg.int({ required: true }), motivo: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => suspendUser(ctx.deps, ctx.actor, args),
  }),
  activateUser: t.field({
    type: User,
    errors: { types: [...RESTRICTED_TRUSTING_LEGACY, ...LOOKUP] },
    args: { user_id: t.arg.int({ required: true }) },
    resolve: (_root, args, ctx) => activateUser(ctx.deps, ctx.actor, args.user_id),
  }),
}));
