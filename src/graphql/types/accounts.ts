import { login } from "../../domain/accounts/login.js";
import { changePassword } from "../../domain/accounts/password-change.js";
import { updateProfile } from "../../domain/accounts/profile.js";
import { register } from "../../domain/accounts/register.js";
import { logout, type IssuedToken } from "../../domain/accounts/sessions.js";
import { USER_TYPES } from "../../domain/accounts/user-types.js";
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

const UserType = builder.enumType("TipoUsuario", { values: USER_TYPES });

const UserLocation = builder.prismaObject("UserLocation", {
  name: "UbicacionUsuario",
  select: { id: true },
  fields: (t) => ({
    id: t.exposeInt("id"),
    usuario_id: t.exposeInt("usuario_id"),
    direccion: t.exposeString("direccion", { nullable: true }),
    ciudad: t.exposeString("ciudad", { nullable: true }),
    departamento: t.exposeString("departamento", { nullable: true }),
    pais: t.exposeString("pais", { nullable: true }),
    latitud: t.exposeFloat("latitud", { nullable: true }),
    longitud: t.exposeFloat("longitud", { nullable: true }),
    codigo_postal: t.exposeString("codigo_postal", { nullable: true }),
    es_principal: t.exposeBoolean("es_principal"),
  }),
});

export const User = builder.prismaObject("User", {
  name: "Usuario",
  select: { id: true },
  fields: (t) => ({
    id: t.exposeInt("id"),
    uuid: t.exposeString("uuid"),
    nombre: t.exposeString("nombre"),
    apellido: t.exposeString("apellido"),
    email: t.exposeString("email"),
    telefono: t.exposeString("telefono"),
    tipo_usuario: t.field({
      type: UserType,
      select: { tipo_usuario: true },
      resolve: (user) => user.tipo_usuario as (typeof USER_TYPES)[number],
    }),
    es_activo: t.exposeBoolean("es_activo"),
    es_verificado: t.exposeBoolean("es_verificado"),
    empresa_id: t.exposeInt("empresa_id", { nullable: true }),
    calificacion: t.exposeFloat("calificacion", { description: "Promedio de calificaciones recibidas (0 sin calificaciones)" }),
    total_calificaciones: t.exposeInt("total_calificaciones", { description: "Cuántas calificaciones recibió" }),
    viajes_completados_como_conductor: t.relationCount("viajes_conductor", { where: { estado: "completado" } }),
    creado_en: t.expose("creado_en", { type: "DateTime" }),
    actualizado_en: t.expose("actualizado_en", { type: "DateTime" }),
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
    token: t.exposeString("token"),
    token_expires_at: t.expose("token_expires_at", { type: "DateTime" }),
    user: t.field({ type: User, resolve: (session) => session.user }),
  }),
});

const locationInputFields = (t: InputFields) => ({
  direccion: t.string(),
  ciudad: t.string(),
  departamento: t.string(),
  pais: t.string(),
  codigo_postal: t.string(),
  latitud: t.float(),
  longitud: t.float(),
});

const RegisterInput = builder.inputType("RegisterInput", {
  fields: (t) => ({
    email: t.string({ required: true }),
    password: t.string({ required: true }),
    nombre: t.string({ required: true }),
    apellido: t.string({ required: true }),
    telefono: t.string({ required: true }),
    tipo_usuario: t.string({ description: "pasajero (por defecto) o conductor" }),
    ...locationInputFields(t),
  }),
});

const UpdateProfileInput = builder.inputType("UpdateProfileInput", {
  fields: (t) => ({
    nombre: t.string(),
    apellido: t.string(),
    telefono: t.string(),
    ...locationInputFields(t),
  }),
});

builder.queryFields((t) => ({
  user: t.prismaField({
    type: User,
    description: "Un usuario por id o por correo (exactamente uno de los dos)",
    errors: { types: [...RESTRICTED_TRUSTING_LEGACY, ...LOOKUP] },
    args: { userId: t.arg.int(), email: t.arg.string() },
    resolve: async (query, _root, args, ctx) => {
      const user = await findUser(ctx.deps.db, ctx.actor, args);
      return ctx.deps.db.user.findUniqueOrThrow({ ...query, where: { id: user.id } });
    },
  }),
  userExists: t.boolean({
    ...PUBLIC,
    description: "Si hay una cuenta con ese correo",
    errors: { types: [ValidationError], directResult: false },
    args: { email: t.arg.string({ required: true }) },
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
      email: t.arg.string({ required: true }),
      password: t.arg.string({ required: true }),
      device_uuid: t.arg.string({
        description: "Identificador del teléfono: con la contraseña correcta queda como dispositivo de confianza",
      }),
    },
    resolve: (_root, args, ctx) => login(ctx.deps, ctx.actor, args),
  }),
  logout: t.boolean({
    description: "Cierra la sesión del token con que se llama",
    errors: { types: RESTRICTED, directResult: false },
    resolve: async (_root, _args, ctx) => {
      await logout(ctx.deps, ctx.actor);
      return true;
    },
  }),
  changePassword: t.field({
    type: Session,
    description: "Cambia la contraseña de quien llama: cierra todas sus sesiones y abre una nueva",
    errors: { types: [...RESTRICTED, ...LOOKUP, InvalidCredentialsError] },
    args: { actual: t.arg.string({ required: true }), nueva: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => changePassword(ctx.deps, ctx.actor, args),
  }),
  register: t.field({
    ...PUBLIC,
    type: User,
    description: "Crea una cuenta y envía un código de verificación al correo",
    errors: { types: [ValidationError, ConflictError] },
    args: { input: t.arg({ type: RegisterInput, required: true }) },
    resolve: (_root, { input }, ctx) => register(ctx.deps, input),
  }),
  updateProfile: t.field({
    type: User,
    description: "Actualiza el perfil de quien llama; el correo no se cambia",
    errors: { types: [...CALLER, ...LOOKUP] },
    args: { input: t.arg({ type: UpdateProfileInput, required: true }) },
    resolve: (_root, { input }, ctx) => updateProfile(ctx.deps, ctx.actor, input),
  }),
  verifyEmail: t.field({
    ...PUBLIC,
    type: User,
    description: "Marca el correo como verificado con el código de 6 dígitos",
    errors: { types: [...LOOKUP, RateLimitError] },
    args: { email: t.arg.string({ required: true }), codigo: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => verifyEmail(ctx.deps, args),
  }),
  resendVerificationCode: t.boolean({
    ...PUBLIC,
    description: "Envía un código de verificación nuevo (uno por minuto como máximo)",
    errors: { types: [...LOOKUP, InvalidStateError, RateLimitError], directResult: false },
    args: { email: t.arg.string({ required: true }) },
    resolve: async (_root, args, ctx) => {
      await resendVerificationCode(ctx.deps, args);
      return true;
    },
  }),
}));
