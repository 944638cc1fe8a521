import { type DEVICE_STATES, deviceStatus } from "../../domain/accounts/devices.js";
import { sendEmailCode, verifyEmailCode } from "../../domain/accounts/email-codes.js";
import { RateLimitError, ValidationError } from "../../domain/errors.js";
import { PUBLIC } from "../sign-in.js";
import { builder } from "../builder.js";

const DeviceState = builder.enumType("EstadoDispositivo", {
  description: "Qué es un teléfono para una cuenta: decide la siguiente pantalla de la app",
  values: {
    user_not_found: { description: "No hay una cuenta con ese correo" },
    unknown_device: { description: "La cuenta nunca se usó desde este teléfono" },
    needs_verification: { description: "El teléfono se conoce pero debe probar el correo con un código" },
    trusted: { description: "Teléfono de confianza: la app pasa directo a la contraseña" },
    locked: { description: "Bloqueado por un rato tras demasiados códigos incorrectos" },
  } satisfies Record<(typeof DEVICE_STATES)[number], unknown>,
});

const DeviceCheck = builder.objectRef<{ exists: boolean; status: (typeof DEVICE_STATES)[number] }>("ConsultaDispositivo").implement({
  description: "Lo que la pantalla de correo de la app necesita saber, y nada más",
  fields: (t) => ({
    existe: t.exposeBoolean("exists", { description: "Si hay una cuenta con ese correo" }),
    estado: t.field({ type: DeviceState, description: "Qué es este teléfono para la cuenta", resolve: (check) => check.status }),
  }),
});

const CodeCheck = builder.objectRef<{ dispositivo_confiable: boolean }>("CodigoVerificado").implement({
  description: "Un código correcto",
  fields: (t) => ({
    dispositivo_confiable: t.exposeBoolean("dispositivo_confiable", { description: "Si el teléfono quedó como dispositivo de confianza" }),
  }),
});

builder.queryFields((t) => ({
  deviceStatus: t.field({
    ...PUBLIC,
    type: DeviceCheck,
    description: "Si existe una cuenta con el correo y qué es este teléfono para ella; no cambia nada",
    errors: { types: [ValidationError] },
    args: {
      email: t.arg.string({ required: true, description: "Correo de la cuenta" }),
      device_uuid: t.arg.string({ required: true, description: "Identificador que la app guarda en el teléfono" }),
    },
    resolve: (_root, args, ctx) => deviceStatus(ctx.deps, args),
  }),
}));

builder.mutationFields((t) => ({
  sendEmailCode: t.boolean({
    ...PUBLIC,
    description: "Envía por correo un código que eligió la app, con un texto fijo; limitado por destinatario y por dirección de origen",
    errors: { types: [ValidationError, RateLimitError], directResult: false, dataField: { description: "Siempre true" } },
    args: {
      email: t.arg.string({ required: true, description: "A quién enviar el código" }),
      codigo: t.arg.string({ required: true, description: "El código, de 4 a 8 dígitos" }),
      nombre: t.arg.string({ description: "Nombre con que saludar; solo se usan letras y a lo sumo tres palabras" }),
    },
    resolve: async (_root, args, ctx) => {
      await sendEmailCode(ctx.deps, ctx.actor, args);
      return true;
    },
  }),
  verifyEmailCode: t.field({
    ...PUBLIC,
    type: CodeCheck,
    description: "Comprueba un código enviado con sendEmailCode; con mark_device_trusted, el teléfono queda de confianza",
    errors: { types: [ValidationError, RateLimitError] },
    args: {
      email: t.arg.string({ required: true, description: "Correo al que se envió el código" }),
      codigo: t.arg.string({ required: true, description: "El código recibido" }),
      device_uuid: t.arg.string({ description: "Identificador que la app guarda en el teléfono" }),
      mark_device_trusted: t.arg.boolean({ description: "Dejar el teléfono como dispositivo de confianza si el código es correcto" }),
    },
    resolve: (_root, args, ctx) => verifyEmailCode(ctx.deps, args),
  }),
}));
