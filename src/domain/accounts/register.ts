import { z } from "zod";
import { isUniqueViolation } from "../../db/client.js";
import type { Deps } from "../deps.js";
import { ConflictError } from "../errors.js";
import { email, oneOf, optional, parseInput, phone, text, type Raw } from "../validation.js";
import { assertCoordinatePair, locationFields, savePrimaryLocation } from "./location.js";
import { assertPasswordPolicy, hashPassword } from "./password.js";
import { issueVerificationCode } from "./verification.js";
import { announce, createNotification } from "../notifications/notifications.js";

/** Account types a person may choose when signing up; the others are created by administrators. */
export const SELF_SERVICE_TYPES = ["pasajero", "conductor"] as const;

const registerSchema = z.object({
  email: email(),
  password: z.string({ error: "es obligatorio" }),
  nombre: text(100),
  apellido: text(100),
  telefono: phone(),
  tipo_usuario: optional(oneOf(SELF_SERVICE_TYPES)),
  ...locationFields,
});

export type RegisterInput = Raw<typeof registerSchema>;

const duplicateEmail = (address: string) => new ConflictError(`Ya existe una cuenta con el correo ${address}`);

/**
 * Creates the account, its primary location when given, a driver profile for drivers, and the
 * first e-mail verification code, all in one transaction.
 */
export async function register(deps: Deps, input: RegisterInput) {
  const data = parseInput(registerSchema, input);
  assertPasswordPolicy(data.password);
  assertCoordinatePair(data);
  if ((await deps.db.user.count({ where: { email: data.email } })) > 0) throw duplicateEmail(data.email);

  const password_hash = await hashPassword(data.password, deps.bcryptCost);
  const tipo_usuario = data.tipo_usuario ?? "pasajero";
  try {
    const { user, mail, welcome } = await deps.db.$transaction(async (tx) => {
      const user = await tx.user.create({
        data: {
          email: data.email,
          password_hash,
          nombre: data.nombre,
          apellido: data.apellido,
          telefono: data.telefono,
          tipo_usuario,
        },
      });
      await savePrimaryLocation(tx, user.id, data);
      if (tipo_usuario === "conductor") {
        await tx.driverProfile.create({
          data: { conductor_id: user.id, nombre_completo: `${user.nombre} ${user.apellido}`, telefono: user.telefono },
        });
      }
      const mail = await issueVerificationCode(tx, deps, user);
      const welcome = await createNotification(tx, user.id, {
        tipo: "bienvenida",
        titulo: "¡Bienvenido!",
        mensaje: "Tu cuenta está creada. Verifica tu correo con el código que te enviamos.",
      });
      return { user, mail, welcome };
    });
    deps.onMailQueued(mail);
    announce(deps, welcome);
    return user;
  } catch (error) {
    // Two sign-ups with one address at the same moment: the unique index decides.
    if (isUniqueViolation(error)) throw duplicateEmail(data.email);
    throw error;
  }
}
