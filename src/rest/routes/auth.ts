import { z } from "zod";
import { optional } from "../../domain/validation.js";
import { USER_TYPE_SPELLINGS, legacyChoice, legacyFlag, legacyId, legacyNumber, legacyText } from "../legacy-fields.js";
import { DEVICE_STATES } from "../../domain/accounts/devices.js";
import { SELF_SERVICE_TYPES } from "../../domain/accounts/register.js";
import { APP_USER, appUser } from "../app-vocabulary.js";
import { LOCATION, USER, selection } from "../resources.js";
import { defineRoute, operation, type GraphQLData } from "../route.js";

const SESSION = z.object({ user: USER, location: LOCATION.nullable(), token: z.string(), token_expires_at: z.iso.datetime() });
const WITH_LOCATION = z.object({
  user: USER,
  location: LOCATION.nullable(),
  data: z.object({ user: APP_USER, location: LOCATION.nullable() }),
});

/** The user and location, and under `data` the same in pingo's words (its session and screens read them there). */
const withLocation = (user: GraphQLData) => ({
  user,
  location: user.location,
  data: { user: appUser(user), location: user.location },
});

export const USER_FRAGMENT = `fragment LegacyUser on Usuario { ${selection(USER)} }`;

/** Personal and address fields as the mobile apps name them (register and profile update). */
const personFields = {
  name: optional(legacyText()),
  lastName: optional(legacyText()),
  phone: optional(legacyText()),
  address: optional(legacyText()),
  latitude: optional(legacyNumber()),
  longitude: optional(legacyNumber()),
  lat: optional(legacyNumber()),
  lng: optional(legacyNumber()),
  city: optional(legacyText()),
  state: optional(legacyText()),
  country: optional(legacyText()),
};

type PersonFields = { [K in keyof typeof personFields]?: z.output<(typeof personFields)[K]> };

const toPersonInput = (input: PersonFields) => ({
  nombre: input.name,
  apellido: input.lastName,
  telefono: input.phone,
  direccion: input.address,
  latitud: input.latitude ?? input.lat,
  longitud: input.longitude ?? input.lng,
  ciudad: input.city,
  departamento: input.state,
  pais: input.country,
});

/** The company an account of type empresa signs up with, as empresa_* fields (sent only with tipo_usuario empresa). */
const companySignupFields = {
  empresa_nombre: optional(legacyText()),
  empresa_nit: optional(legacyText()),
  empresa_email: optional(legacyText()),
  empresa_telefono: optional(legacyText()),
  empresa_direccion: optional(legacyText()),
};

const toCompanySignup = (input: { [K in keyof typeof companySignupFields]?: string }) => {
  const company = {
    nombre: input.empresa_nombre,
    nit: input.empresa_nit,
    email: input.empresa_email,
    telefono: input.empresa_telefono,
    direccion: input.empresa_direccion,
  };
  return Object.values(company).some((value) => value !== undefined) ? company : undefined;
};

const companySignupLegacyNames = {
  "empresa.nombre": "empresa_nombre",
  "empresa.nit": "empresa_nit",
  "empresa.email": "empresa_email",
  "empresa.telefono": "empresa_telefono",
  "empresa.direccion": "empresa_direccion",
};

/** The company a sign-up answers with. */
const COMPANY = z.object({ id: z.number().int(), nombre: z.string(), nit: z.string(), estado: z.string() });

const personLegacyNames = {
  nombre: "name",
  apellido: "lastName",
  telefono: "phone",
  direccion: "address",
  latitud: "latitude",
  longitud: "longitude",
  ciudad: "city",
  departamento: "state",
  pais: "country",
};

export const authRoutes = [
  defineRoute({
    method: "POST",
    path: "/auth/login.php",
    summary: "Inicia sesión: responde el usuario con su ubicación y un token",
    public: true,
    // pingo names the phone: with the right password it becomes trusted (check_device.php).
    input: z.object({ email: legacyText(), password: legacyText(), device_uuid: optional(legacyText()) }),
    document: operation(
      `mutation Login($email: String!, $password: String!, $device_uuid: String) {
        login(email: $email, password: $password, device_uuid: $device_uuid) {
          ...LegacyError ... on Sesion { token token_expires_at user { ...LegacyUser } }
        }
      }`,
      USER_FRAGMENT,
    ),
    variables: (input) => input,
    output: z.object({ ...SESSION.shape, data: SESSION.extend({ user: APP_USER }) }),
    respond: ({ user, token, token_expires_at }) => ({
      message: "Inicio de sesión exitoso",
      ...withLocation(user),
      token,
      token_expires_at,
      // pingo's UserService reads the session under data, and its login screen routes by data.user.tipo_usuario.
      data: { user: appUser(user), location: user.location, token, token_expires_at },
    }),
  }),
  defineRoute({
    method: "POST",
    path: "/auth/logout.php",
    summary: "Cierra la sesión del token enviado",
    input: z.object({}),
    document: operation(`mutation Logout { logout { ...LegacyError ... on MutationLogoutSuccess { data } } }`),
    variables: () => ({}),
    output: z.object({}),
    respond: () => ({ message: "Sesión cerrada" }),
  }),
  defineRoute({
    method: "POST",
    path: "/auth/register.php",
    summary:
      "Crea una cuenta de pasajero, de conductor o de empresa (con su empresa, que espera revisión) y envía un código de verificación",
    public: true,
    input: z.object({
      ...personFields,
      ...companySignupFields,
      email: legacyText(),
      password: legacyText(),
      name: legacyText(),
      lastName: legacyText(),
      phone: legacyText(),
      tipo_usuario: optional(legacyChoice(SELF_SERVICE_TYPES, USER_TYPE_SPELLINGS)),
    }),
    document: operation(
      `mutation Register($input: RegisterInput!) {
        register(input: $input) { ...LegacyError ...LegacyUser ... on Usuario { empresa { ${selection(COMPANY)} } } }
      }`,
      USER_FRAGMENT,
    ),
    variables: (input) => ({
      input: {
        ...toPersonInput(input),
        email: input.email,
        password: input.password,
        tipo_usuario: input.tipo_usuario,
        empresa: toCompanySignup(input),
      },
    }),
    legacyNames: { ...personLegacyNames, ...companySignupLegacyNames },
    output: z.object({ user: USER, data: z.object({ user: APP_USER }), empresa: COMPANY.optional() }),
    respond: ({ empresa, ...user }) => ({
      message: empresa
        ? "Registro exitoso; tu empresa queda en revisión y te avisaremos cuando pueda operar. Enviamos un código de verificación a tu correo"
        : "Registro exitoso; enviamos un código de verificación a tu correo",
      user,
      data: { user: appUser(user) },
      ...(empresa ? { empresa } : {}),
    }),
  }),
  defineRoute({
    method: "POST",
    path: "/auth/check_user.php",
    summary: "Dice si existe una cuenta con ese correo",
    public: true,
    input: z.object({ email: legacyText() }),
    document: operation(
      `query CheckUser($email: String!) {
        userExists(email: $email) { ...LegacyError ... on QueryUserExistsSuccess { data } }
      }`,
    ),
    variables: (input) => input,
    output: z.object({ exists: z.boolean() }),
    respond: (result) => ({
      exists: result.data,
      message: result.data ? "El usuario existe" : "No hay un usuario con ese correo",
    }),
  }),
  // The welcome flow of the app's https://github.com/Braian551/pingo/blob/35be6b2751ba54667ec1437fc46cd3a8ee79fd51/lib/src/features/auth/presentation/screens/email_auth_screen.dart and email_verification_screen.dart.
  defineRoute({
    method: "POST",
    path: "/auth/check_device.php",
    summary: "Si hay una cuenta con el correo y qué es este teléfono para ella: decide la pantalla siguiente de la app",
    public: true,
    input: z.object({ email: legacyText(), device_uuid: legacyText() }),
    document: operation(
      `query CheckDevice($email: String!, $device_uuid: String!) {
        deviceStatus(email: $email, device_uuid: $device_uuid) { ...LegacyError ... on ConsultaDispositivo { existe estado } }
      }`,
    ),
    variables: (input) => input,
    output: z.object({ data: z.object({ exists: z.boolean(), status: z.enum(DEVICE_STATES) }) }),
    respond: ({ existe, estado }) => ({
      message: existe ? "Estado del dispositivo" : "No hay una cuenta con ese correo",
      data: { exists: existe, status: estado },
    }),
  }),
  defineRoute({
    method: "POST",
    path: "/auth/email_service.php",
    summary: "Envía por correo el código de verificación que eligió la app (texto fijo; limitado por correo y por origen)",
    public: true,
    input: z.object({ email: legacyText(), code: legacyText(), userName: optional(legacyText()) }),
    document: operation(
      `mutation SendCode($email: String!, $codigo: String!, $nombre: String) {
        sendEmailCode(email: $email, codigo: $codigo, nombre: $nombre) { ...LegacyError ... on MutationSendEmailCodeSuccess { data } }
      }`,
    ),
    variables: ({ email, code, userName }) => ({ email, codigo: code, nombre: userName }),
    legacyNames: { codigo: "code", nombre: "userName" },
    output: z.object({}),
    respond: () => ({ message: "Te enviamos el código a tu correo" }),
  }),
  defineRoute({
    method: "POST",
    path: "/auth/verify_code.php",
    summary: "Comprueba el código enviado por email_service.php; con mark_device_trusted, el teléfono queda de confianza",
    public: true,
    input: z.object({
      email: legacyText(),
      code: legacyText(),
      device_uuid: optional(legacyText()),
      mark_device_trusted: optional(legacyFlag()),
    }),
    document: operation(
      `mutation VerifyCode($email: String!, $codigo: String!, $device_uuid: String, $mark_device_trusted: Boolean) {
        verifyEmailCode(email: $email, codigo: $codigo, device_uuid: $device_uuid, mark_device_trusted: $mark_device_trusted) {
          ...LegacyError ... on CodigoVerificado { dispositivo_confiable }
        }
      }`,
    ),
    variables: ({ code, ...input }) => ({ ...input, codigo: code }),
    legacyNames: { codigo: "code" },
    output: z.object({ dispositivo_confiable: z.boolean() }),
    respond: ({ dispositivo_confiable }) => ({ message: "Código verificado correctamente", dispositivo_confiable }),
  }),
  defineRoute({
    method: "GET",
    path: "/verify_system_json.php",
    summary: "Comprobación de salud del servicio anterior: responde y alcanza su base de datos",
    public: true,
    input: z.object({}),
    document: operation(`query Health { serviceStatus { base_de_datos fecha } }`),
    variables: () => ({}),
    output: z.object({ status: z.literal("success"), database: z.literal("connected"), timestamp: z.iso.datetime() }),
    respond: ({ fecha }) => ({ status: "success", database: "connected", timestamp: fecha }),
  }),
  defineRoute({
    method: "GET",
    path: "/auth/profile.php",
    summary: "Perfil de un usuario por id o por correo, con su ubicación principal",
    input: z.object({ userId: optional(legacyId()), email: optional(legacyText()) }),
    caller: "userId",
    document: operation(
      `query Profile($userId: Int, $email: String) { user(userId: $userId, email: $email) { ...LegacyError ...LegacyUser } }`,
      USER_FRAGMENT,
    ),
    variables: (input) => input,
    output: WITH_LOCATION,
    respond: withLocation,
  }),
  defineRoute({
    method: "POST",
    path: "/auth/profile_update.php",
    summary: "Cambia los datos personales y la ubicación principal enviados; nunca el correo",
    input: z.object({ userId: legacyId(), ...personFields }),
    caller: "userId",
    document: operation(
      `mutation UpdateProfile($input: UpdateProfileInput!) { updateProfile(input: $input) { ...LegacyError ...LegacyUser } }`,
      USER_FRAGMENT,
    ),
    variables: (input) => ({ input: toPersonInput(input) }),
    legacyNames: personLegacyNames,
    output: WITH_LOCATION,
    respond: (user) => ({ message: "Perfil actualizado", ...withLocation(user) }),
  }),
];
