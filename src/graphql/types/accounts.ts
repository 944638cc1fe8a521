import { login } from "../../domain/accounts/login.js";
import { changePassword } from "../../domain/accounts/password-change.js";
import { choosePassword, requestPasswordReset } from "../../domain/accounts/password-setup.js";
import { updateProfile } from "../../domain/accounts/profile.js";
import { register } from "../../domain/accounts/register.js";
import { logout, type IssuedToken } from "../../domain/accounts/sessions.js";
import type { UserType } from "../../domain/user-types.js";
import { findUser, userExists } from "../../domain/accounts/users.js";
import { resendVerificationCode, verifyEmail } from "../../domain/accounts/verification.js";
import {
  AccountDisabledError,
  ConflictError,
  InvalidCredentialsError,
  InvalidStateError,
  RateLimitError,
  ValidationError,
} from "../../domain/errors.js";
import type { User as UserRow } from "../../db/models.js";
import { PUBLIC } from "../sign-in.js";
import { builder, type InputFields } from "../builder.js";
import { CALLER, LOOKUP, RESTRICTED, RESTRICTED_TRUSTING_LEGACY } from "../errors.js";
import { CompanySummary } from "./company-summary.js";
import { describedEnum } from "./enums.js";

export const UserTypeEnum = describedEnum("TipoUsuario", "La clase de una cuenta", {
  pasajero: "Pide viajes",
  conductor: "Lleva pasajeros, una vez aprobado",
  admin: "Administra la plataforma",
  empresa: "Una empresa de transporte",
} satisfies Record<UserType, string>);

const UserLocation = builder.prismaObject("UserLocation", {
  name: "UbicacionUsuario",
  description: "Una ubicación guardada de un usuario",
  select: { id: true },
  fields: (t) => ({
    id: t.exposeInt("id", { description: "La ubicación" }),
    usuario_id: t.exposeInt("usuario_id", { description: "Su usuario" }),
    direccion: t.exposeString("direccion", { nullable: true, description: "La dirección" }),
    ciudad: t.exposeString("ciudad", { nullable: true, description: "El municipio" }),
    departamento: t.exposeString("departamento", { nullable: true, description: "El departamento" }),
    pais: t.exposeString("pais", { nullable: true, description: "El país" }),
    latitud: t.exposeFloat("latitud", { nullable: true, description: "Latitud (grados)" }),
    longitud: t.exposeFloat("longitud", { nullable: true, description: "Longitud (grados)" }),
    codigo_postal: t.exposeString("codigo_postal", { nullable: true, description: "El código postal" }),
    es_principal: t.exposeBoolean("es_principal", { description: "Si es su ubicación principal" }),
  }),
});

export const User = builder.prismaObject("User", {
  name: "Usuario",
  description: "Una cuenta: pasajero, conductor, administrador o empresa",
  select: { id: true },
  fields: (t) => ({
    id: t.exposeInt("id", { description: "La cuenta" }),
    uuid: t.exposeString("uuid", { description: "Identificador público e invariable de la cuenta" }),
    nombre: t.exposeString("nombre", { description: "Nombre" }),
    apellido: t.exposeString("apellido", { description: "Apellido" }),
    email: t.exposeString("email", { description: "Correo, con el que entra" }),
    telefono: t.exposeString("telefono", { description: "Teléfono" }),
    tipo_usuario: t.field({
      type: UserTypeEnum,
      description: "Qué clase de cuenta es",
      select: { tipo_usuario: true },
      resolve: (user) => user.tipo_usuario as UserType,
    }),
    es_activo: t.exposeBoolean("es_activo", { description: "false: un administrador la desactivó" }),
    es_verificado: t.exposeBoolean("es_verificado", { description: "Si confirmó su correo" }),
    empresa_id: t.exposeInt("empresa_id", { nullable: true, description: "La empresa a la que está afiliada, si alguna" }),
    empresa: t.relation("empresa", { type: CompanySummary, nullable: true, description: "Su empresa: la de sus viajes o la que gestiona" }),
    calificacion: t.exposeFloat("calificacion", { description: "Promedio de calificaciones recibidas (0 sin calificaciones)" }),
    total_calificaciones: t.exposeInt("total_calificaciones", { description: "Cuántas calificaciones recibió" }),
    verificar_pin: t.exposeBoolean("verificar_pin", {
      description: "Si sus viajes, como pasajero, solo inician con el PIN que se le muestra (pin_inicio)",
    }),
    viajes_completados_como_conductor: t.relationCount("viajes_conductor", {
      where: { estado: "completado" },
      description: "Viajes que completó como conductor",
    }),
    creado_en: t.expose("creado_en", { type: "DateTime", description: "Cuándo se registró" }),
    actualizado_en: t.expose("actualizado_en", { type: "DateTime", description: "Cuándo cambió por última vez" }),
    location: t.field({
      type: UserLocation,
      nullable: true,
      description: "La ubicación principal",
      select: (_args, _ctx, nested) => ({
        ubicaciones: nested({ where: { es_principal: true }, orderBy: { id: "asc" }, take: 1 }),
      }),
      resolve: (user) => user.ubicaciones[0] ?? null,
    }),
  }),
});

const Session = builder.objectRef<IssuedToken & { user: UserRow }>("Sesion").implement({
  description: "Una sesión iniciada: envía el token en la cabecera Authorization: Bearer <token>",
  fields: (t) => ({
    token: t.exposeString("token", { description: "El token de la sesión" }),
    token_expires_at: t.expose("token_expires_at", { type: "DateTime", description: "Cuándo vence" }),
    user: t.field({ type: User, description: "Quien inició la sesión", resolve: (session) => session.user }),
  }),
});

const locationInputFields = (t: InputFields) => ({
  direccion: t.string({ description: "La dirección" }),
  ciudad: t.string({ description: "El municipio" }),
  departamento: t.string({ description: "El departamento" }),
  pais: t.string({ description: "El país" }),
  codigo_postal: t.string({ description: "El código postal" }),
  latitud: t.float({ description: "Latitud (grados), con longitud" }),
  longitud: t.float({ description: "Longitud (grados), con latitud" }),
});

const CompanySignupInput = builder.inputType("CompanySignupInput", {
  description: "La empresa con la que se registra una cuenta de tipo empresa",
  fields: (t) => ({
    // Required, as the domain checks: so that a missing one is a ValidationError naming it.
    nombre: t.string({ description: "Su nombre (obligatorio)" }),
    nit: t.string({ description: "Su NIT, por ejemplo 900123456-7 (obligatorio)" }),
    email: t.string({ description: "Su correo" }),
    telefono: t.string({ description: "Su teléfono (7 a 15 dígitos)" }),
    direccion: t.string({ description: "Su dirección" }),
  }),
});

const RegisterInput = builder.inputType("RegisterInput", {
  description: "Una cuenta nueva y, si se envía, su ubicación principal",
  fields: (t) => ({
    email: t.string({ required: true, description: "Correo, con el que entrará" }),
    password: t.string({ required: true, description: "Contraseña" }),
    nombre: t.string({ required: true, description: "Nombre" }),
    apellido: t.string({ required: true, description: "Apellido" }),
    telefono: t.string({ required: true, description: "Teléfono (7 a 15 dígitos)" }),
    tipo_usuario: t.field({
      type: UserTypeEnum,
      description:
        "pasajero (por defecto), conductor o empresa (con los datos de la empresa); los administradores los crean los administradores",
    }),
    empresa: t.field({
      type: CompanySignupInput,
      description: "La empresa de una cuenta de tipo empresa: espera la revisión de un administrador",
    }),
    ...locationInputFields(t),
  }),
});

const UpdateProfileInput = builder.inputType("UpdateProfileInput", {
  description: "Los datos del perfil que cambian; los que no se envían no cambian",
  fields: (t) => ({
    nombre: t.string({ description: "Nombre" }),
    apellido: t.string({ description: "Apellido" }),
    telefono: t.string({ description: "Teléfono (7 a 15 dígitos)" }),
    verificar_pin: t.boolean({ description: "Verificar con PIN: sus viajes solo inician con el PIN que se le muestra" }),
    ...locationInputFields(t),
  }),
});

builder.queryFields((t) => ({
  user: t.prismaField({
    type: User,
    description: "Un usuario por id o por correo (exactamente uno de los dos)",
    errors: { types: [...RESTRICTED_TRUSTING_LEGACY, ...LOOKUP] },
    args: { userId: t.arg.int({ description: "Su id" }), email: t.arg.string({ description: "Su correo" }) },
    resolve: async (query, _root, args, ctx) => {
      const user = await findUser(ctx.deps.reads, ctx.actor, args);
      return ctx.deps.db.user.findUniqueOrThrow({ ...query, where: { id: user.id } });
    },
  }),
  userExists: t.boolean({
    ...PUBLIC,
    description: "Si hay una cuenta con ese correo",
    errors: { types: [ValidationError], directResult: false, dataField: { description: "Si existe" } },
    args: { email: t.arg.string({ required: true, description: "El correo" }) },
    resolve: (_root, args, ctx) => userExists(ctx.deps.db, args),
  }),
}));

builder.mutationFields((t) => ({
  login: t.field({
    ...PUBLIC,
    type: Session,
    description: "Inicia una sesión; tras 10 contraseñas erradas en 15 minutos responde RateLimitError",
    errors: { types: [...LOOKUP, RateLimitError, InvalidCredentialsError, AccountDisabledError] },
    args: {
      email: t.arg.string({ required: true, description: "Correo de la cuenta" }),
      password: t.arg.string({ required: true, description: "Contraseña" }),
      device_uuid: t.arg.string({
        description: "Identificador del teléfono: con la contraseña correcta queda como dispositivo de confianza",
      }),
    },
    resolve: (_root, args, ctx) => login(ctx.deps, ctx.actor, args),
  }),
  logout: t.boolean({
    description: "Cierra la sesión del token con que se llama",
    errors: { types: RESTRICTED, directResult: false, dataField: { description: "Siempre true" } },
    resolve: async (_root, _args, ctx) => {
      await logout(ctx.deps, ctx.actor);
      return true;
    },
  }),
  requestPasswordReset: t.boolean({
    ...PUBLIC,
    description:
      "Pide un código de un solo uso para elegir una contraseña nueva (choosePassword), que llega al correo si hay una cuenta con él; " +
      "responde lo mismo si no la hay. Limitado por destinatario y por dirección de origen",
    errors: { types: [ValidationError, RateLimitError], directResult: false, dataField: { description: "Siempre true" } },
    args: { email: t.arg.string({ required: true, description: "El correo de la cuenta" }) },
    resolve: async (_root, args, ctx) => {
      await requestPasswordReset(ctx.deps, ctx.actor, args);
      return true;
    },
  }),
  choosePassword: t.field({
    ...PUBLIC,
    type: User,
    description:
      "Crea la contraseña de una cuenta con el código de un solo uso que se le envió por correo (una invitación o requestPasswordReset); " +
      "cierra todas las sesiones que la cuenta tenía abiertas",
    errors: { types: [ValidationError] },
    args: {
      email: t.arg.string({ required: true, description: "El correo de la cuenta" }),
      codigo: t.arg.string({ required: true, description: "El código recibido" }),
      password: t.arg.string({
        required: true,
        description: "La contraseña nueva: al menos 8 caracteres, difícil de adivinar y sin relación con el nombre o el correo",
      }),
    },
    resolve: (_root, args, ctx) => choosePassword(ctx.deps, args),
  }),
  changePassword: t.field({
    type: Session,
    description: "Cambia la contraseña de quien llama: cierra todas sus sesiones y abre una nueva",
    errors: { types: [...RESTRICTED, ...LOOKUP, InvalidCredentialsError] },
    args: {
      actual: t.arg.string({ required: true, description: "La contraseña de ahora" }),
      nueva: t.arg.string({ required: true, description: "La nueva" }),
    },
    resolve: (_root, args, ctx) => changePassword(ctx.deps, ctx.actor, args),
  }),
  register: t.field({
    ...PUBLIC,
    type: User,
    description: "Crea una cuenta y envía un código de verificación al correo",
    errors: { types: [ValidationError, ConflictError] },
    args: { input: t.arg({ type: RegisterInput, required: true, description: "La cuenta" }) },
    resolve: (_root, { input }, ctx) => register(ctx.deps, input),
  }),
  updateProfile: t.field({
    type: User,
    description: "Actualiza el perfil de quien llama; el correo no se cambia",
    errors: { types: [...CALLER, ...LOOKUP] },
    args: { input: t.arg({ type: UpdateProfileInput, required: true, description: "Lo que cambia" }) },
    resolve: (_root, { input }, ctx) => updateProfile(ctx.deps, ctx.actor, input),
  }),
  verifyEmail: t.field({
    ...PUBLIC,
    type: User,
    description: "Marca el correo como verificado con el código de 6 dígitos",
    errors: { types: [...LOOKUP, RateLimitError] },
    args: {
      email: t.arg.string({ required: true, description: "El correo" }),
      codigo: t.arg.string({ required: true, description: "El código recibido" }),
    },
    resolve: (_root, args, ctx) => verifyEmail(ctx.deps, args),
  }),
  resendVerificationCode: t.boolean({
    ...PUBLIC,
    description: "Envía un código de verificación nuevo (uno por minuto como máximo)",
    errors: { types: [...LOOKUP, InvalidStateError, RateLimitError], directResult: false, dataField: { description: "Siempre true" } },
    args: { email: t.arg.string({ required: true, description: "El correo" }) },
    resolve: async (_root, args, ctx) => {
      await resendVerificationCode(ctx.deps, args);
      return true;
    },
  }),
}));
