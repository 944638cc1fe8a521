import type { AuditTarget } from "../../domain/audit/audit-actions.js";
import { AUDIT_SORTING, auditLog } from "../../domain/admin/audit-log.js";
import { AUDIT_ACTION_LABELS } from "../../domain/audit/audit-actions.js";
import { describeEntry } from "../../domain/audit/audit-descriptions.js";
import { activateUser, deleteUser, listUsers, suspendUser, updateUser, USER_SORTING } from "../../domain/admin/users.js";
import { listDrivers } from "../../domain/admin/drivers.js";
import { DRIVER_SORTING, type DRIVER_SORTS } from "../../domain/drivers/filters.js";
import { reviewDocumentHistory } from "../../domain/admin/document-review.js";
import { InvalidStateError, NotFoundError, ValidationError } from "../../domain/errors.js";
import { Deleted, builder } from "../builder.js";
import { LOOKUP, RESTRICTED, RESTRICTED_TRUSTING_LEGACY } from "../errors.js";
import { DocumentPhoto } from "./document-history.js";
import { DriverProfile } from "./drivers.js";
import { User, UserTypeEnum } from "./accounts.js";
import { describedEnum, ReviewStateEnum, VehicleTypeEnum } from "./enums.js";
import { pageArgs, pageType, sortArgs } from "./lists.js";

const UserPage = pageType("PaginaUsuarios", User, "Una página de usuarios");

const AuditAction = describedEnum("AccionAuditoria", "Lo que hizo quien queda en la auditoría", AUDIT_ACTION_LABELS);
type AuditActionValue = keyof typeof AUDIT_ACTION_LABELS;

const AuditTargetEnum = describedEnum("ObjetivoAuditoria", "Sobre qué clase de registro fue una acción auditada", {
  usuario: "Una cuenta de usuario",
  conductor: "Un conductor: su solicitud, su saldo o sus cuentas de retiro",
  tarifa: "La tarifa de un tipo de vehículo",
  empresa: "Una empresa",
  configuracion: "Un ajuste de la app",
  retiro: "Un retiro del saldo de un conductor",
  viaje: "Un viaje",
  reserva: "Un viaje reservado con anticipación",
  incidente_sos: "Un SOS enviado desde un viaje",
} satisfies Record<AuditTarget, string>);

type AuditRow = Awaited<ReturnType<typeof auditLog>>["items"][number];

const AuditAdmin = builder.objectRef<NonNullable<AuditRow["administrador"]>>("AdministradorAuditoria").implement({
  description: "El administrador que hizo una acción auditada",
  fields: (t) => ({
    id: t.exposeInt("id", { description: "Su cuenta" }),
    nombre: t.exposeString("nombre", { description: "Su nombre" }),
    apellido: t.exposeString("apellido", { description: "Su apellido" }),
    email: t.exposeString("email", { description: "Su correo" }),
  }),
});

export const AuditEntry = builder.prismaObject("AuditEntry", {
  name: "EntradaAuditoria",
  description: "Una acción de un administrador",
  fields: (t) => ({
    id: t.exposeInt("id", { description: "La entrada" }),
    admin_id: t.exposeInt("admin_id", { nullable: true, description: "null si una llamada heredada no nombró administrador" }),
    via: t.exposeString("via", { description: "token, ids (el id que envió una llamada heredada), o servicio (lo hizo el servicio solo)" }),
    // Only audit() writes entries, with one of the domain's actions and targets.
    accion: t.field({ type: AuditAction, description: "Qué hizo", resolve: (entry) => entry.accion as AuditActionValue }),
    objetivo_tipo: t.field({
      type: AuditTargetEnum,
      description: "Sobre qué clase de registro",
      resolve: (entry) => entry.objetivo_tipo as AuditTarget,
    }),
    objetivo_id: t.exposeInt("objetivo_id", { description: "El id de ese registro" }),
    detalles: t.exposeString("detalles", { nullable: true, description: "JSON: los campos enviados o el motivo" }),
    descripcion: t.string({ description: "La acción en una frase", resolve: (entry) => describeEntry(entry) }),
    direccion_ip: t.exposeString("direccion_ip", { nullable: true, description: "Desde dónde llamó, si se supo" }),
    creado_en: t.expose("creado_en", { type: "DateTime", description: "Cuándo" }),
    administrador: t.field({
      type: AuditAdmin,
      nullable: true,
      description: "Quién la hizo; null si la llamada no nombró administrador o su cuenta ya no existe",
      // Entries only ever come from auditLog, which attaches their administrator.
      resolve: (entry) => (entry as AuditRow).administrador,
    }),
  }),
});

const AuditPage = pageType("PaginaAuditoria", AuditEntry, "Una página de la auditoría");

type DriverPageView = Awaited<ReturnType<typeof listDrivers>>;

const DriverCounts = builder.objectRef<DriverPageView["estadisticas"]>("ConteoConductores").implement({
  description: "Cuántos conductores hay, de todos, sin los filtros de la lista",
  fields: (t) => ({
    total_conductores: t.exposeInt("total_conductores", { description: "Todos" }),
    pendientes_verificacion: t.exposeInt("pendientes_verificacion", { description: "En revisión" }),
    aprobados: t.exposeInt("aprobados", { description: "Aprobados" }),
    con_documentos_vencidos: t.exposeInt("con_documentos_vencidos", {
      description: "Con la licencia, el SOAT o la técnico-mecánica vencidos",
    }),
  }),
});

const DriverPage = pageType<DriverPageView["items"][number], DriverPageView>(
  "PaginaConductores",
  DriverProfile,
  "Una página de conductores, con los conteos de la pantalla de revisión",
);
builder.objectField(DriverPage, "estadisticas", (t) =>
  t.field({ type: DriverCounts, description: "Los conteos de todos los conductores", resolve: (page) => page.estadisticas }),
);

const UserChanges = builder.inputType("UserChangesInput", {
  description: "Los campos de un usuario que cambia un administrador; los que no se envían no cambian",
  fields: (t) => ({
    nombre: t.string({ description: "Nombre" }),
    apellido: t.string({ description: "Apellido" }),
    telefono: t.string({ description: "Teléfono (7 a 15 dígitos)" }),
    tipo_usuario: t.field({ type: UserTypeEnum, description: "Tipo de cuenta" }),
    es_activo: t.boolean({ description: "false desactiva la cuenta y cierra sus sesiones" }),
    es_verificado: t.boolean({ description: "Si su correo está verificado" }),
    empresa_id: t.int({ description: "La empresa a la que se afilia" }),
  }),
});

const userId = { description: "El usuario" };

/** What each order of a list of drivers is. */
export const DRIVER_SORT_LABELS = {
  fecha_solicitud: "Cuándo envió su solicitud a revisión; los que no la han enviado, al final",
  id: "El número de su perfil",
  nombre: "Su nombre y apellido",
  email: "Su correo",
  fecha_creacion: "Cuándo se creó su perfil",
  fecha_aprobacion: "Cuándo se aprobó; los no aprobados, al final",
} satisfies Record<(typeof DRIVER_SORTS)[number], string>;

builder.queryFields((t) => ({
  users: t.field({
    type: UserPage,
    description: "Usuarios por páginas, filtrados, buscados y ordenados (solo administradores)",
    errors: { types: [...RESTRICTED, ValidationError] },
    args: {
      ...pageArgs,
      search: t.arg.string({ description: "Parte del nombre, el apellido, el correo o el teléfono" }),
      tipo_usuario: t.arg({ type: UserTypeEnum, description: "Solo los de este tipo" }),
      es_activo: t.arg.boolean({ description: "Solo los activos (true) o los desactivados (false)" }),
      ...sortArgs("OrdenUsuarios", "Por qué se ordena la lista de usuarios", USER_SORTING, {
        id: "Su número",
        nombre: "Su nombre y apellido",
        email: "Su correo",
        fecha_registro: "Cuándo se registró",
        tipo_usuario: "Su tipo de cuenta",
      }),
    },
    resolve: (_root, args, ctx) => listUsers(ctx.deps, ctx.actor, args),
  }),
  drivers: t.field({
    type: DriverPage,
    description: "Conductores por páginas, filtrados, buscados y ordenados, con los conteos de la revisión (solo administradores)",
    errors: { types: [...RESTRICTED, ValidationError] },
    args: {
      ...pageArgs,
      search: t.arg.string({ description: "Parte del nombre, el apellido, el correo, el teléfono o la placa" }),
      estado_revision: t.arg({ type: ReviewStateEnum, description: "Solo los de este estado de revisión; sin él, todos" }),
      tipo_vehiculo: t.arg({ type: VehicleTypeEnum, description: "Solo los de este tipo de vehículo" }),
      en_linea: t.arg.boolean({ description: "Solo los conectados ahora, libres o en un viaje (true), o los desconectados (false)" }),
      empresa_id: t.arg.int({ description: "Solo los de esta empresa" }),
      documentos_vencidos: t.arg.boolean({
        description: "Solo los que tienen (true) o no tienen (false) la licencia, el SOAT o la técnico-mecánica vencidos",
      }),
      ...sortArgs("OrdenConductores", "Por qué se ordena la lista de conductores", DRIVER_SORTING, DRIVER_SORT_LABELS),
    },
    resolve: (_root, args, ctx) => listDrivers(ctx.deps, ctx.actor, args),
  }),
  driverDocumentHistory: t.field({
    type: [DocumentPhoto],
    description: "Las fotos que un conductor tuvo para sus documentos, para la pantalla de revisión (solo administradores)",
    errors: { types: [...RESTRICTED, NotFoundError], dataField: { description: "Las fotos, las más recientes primero" } },
    args: { conductor_id: t.arg.int({ required: true, description: "El conductor" }) },
    resolve: (_root, args, ctx) => reviewDocumentHistory(ctx.deps, ctx.actor, args.conductor_id),
  }),
  auditLog: t.field({
    type: AuditPage,
    description: "Las acciones de los administradores, filtradas, buscadas y ordenadas (solo administradores)",
    errors: { types: [...RESTRICTED, ValidationError] },
    args: {
      ...pageArgs,
      search: t.arg.string({
        description: "Texto de lo que dice la entrada: las palabras de su acción, sus detalles, o el id de su objetivo",
      }),
      accion: t.arg({ type: AuditAction, description: "Solo las de esta acción" }),
      admin_id: t.arg.int({ description: "Solo las de este administrador" }),
      objetivo_tipo: t.arg({ type: AuditTargetEnum, description: "Solo las sobre esta clase de registro" }),
      objetivo_id: t.arg.int({ description: "Solo las sobre el registro con este id" }),
      desde: t.arg.string({ description: "Fecha ISO 8601; un día sin hora empieza a las 00:00 en Bogotá" }),
      hasta: t.arg.string({ description: "Fecha ISO 8601; un día sin hora incluye todo ese día" }),
      ...sortArgs("OrdenAuditoria", "Por qué se ordena la auditoría", AUDIT_SORTING, {
        creado_en: "Cuándo ocurrió",
        id: "El número de la entrada",
        accion: "El nombre de la acción",
      }),
    },
    resolve: (_root, args, ctx) => auditLog(ctx.deps, ctx.actor, args),
  }),
}));

builder.mutationFields((t) => ({
  updateUser: t.field({
    type: User,
    description: "Cambia los campos enviados de un usuario (solo administradores)",
    errors: { types: [...RESTRICTED, ...LOOKUP] },
    args: {
      user_id: t.arg.int({ required: true, ...userId }),
      input: t.arg({ type: UserChanges, required: true, description: "Los campos que cambian" }),
    },
    resolve: (_root, args, ctx) => updateUser(ctx.deps, ctx.actor, args.user_id, args.input),
  }),
  deleteUser: t.field({
    type: Deleted,
    description: "Elimina la cuenta para siempre; sus viajes quedan en el historial sin el usuario (solo administradores)",
    errors: { types: [...RESTRICTED, ...LOOKUP, InvalidStateError] },
    args: { user_id: t.arg.int({ required: true, ...userId }) },
    resolve: (_root, args, ctx) => deleteUser(ctx.deps, ctx.actor, args.user_id),
  }),
  suspendUser: t.field({
    type: User,
    description: "Suspende una cuenta: se cierran sus sesiones y no puede entrar hasta que la reactiven (administradores)",
    errors: { types: [...RESTRICTED_TRUSTING_LEGACY, ...LOOKUP] },
    args: {
      user_id: t.arg.int({ required: true, ...userId }),
      motivo: t.arg.string({ required: true, description: "Por qué; se le notifica al usuario" }),
    },
    resolve: (_root, args, ctx) => suspendUser(ctx.deps, ctx.actor, args),
  }),
  activateUser: t.field({
    type: User,
    description: "Levanta la suspensión o la desactivación de una cuenta (administradores)",
    errors: { types: [...RESTRICTED_TRUSTING_LEGACY, ...LOOKUP] },
    args: { user_id: t.arg.int({ required: true, ...userId }) },
    resolve: (_root, args, ctx) => activateUser(ctx.deps, ctx.actor, args.user_id),
  }),
}));
