import { z } from "zod";
import { isUniqueViolation } from "../../db/client.js";
import type { Deps } from "../deps.js";
import { ConflictError } from "../errors.js";
import { email, oneOf, optional, parseInput, phone, text, type Raw } from "../validation.js";
import { assertCoordinatePair, locationFields, savePrimaryLocation } from "./location.js";
import { assertPasswordPolicy, hashPassword } from "./password.js";
import { issueVerificationCode } from "./verification.js";
import { announce, createNotification } from "../notifications/notifications.js";
import { assertNitFree, companySignup, signingUpCompany } from "./company-signup.js";

/** Account types a person may choose when signing up; administrators are only created by administrators. */
export const SELF_SERVICE_TYPES = ["pasajero", "conductor", "empresa"] as const;

const registerSchema = z.object({
  email: email(),
  password: z.string({ error: "es obligatorio" }),
  nombre: text(100),
  apellido: text(100),
  telefono: phone(),
  tipo_usuario: optional(oneOf(SELF_SERVICE_TYPES)),
  /** The company an account of type empresa signs up with; it waits for review. */
  empresa: optional(companySignup),
  ...locationFields,
});

export type RegisterInput = Raw<typeof registerSchema>;

const WELCOME = {
  tipo: "bienvenida",
  titulo: "¡Bienvenido!",
  mensaje: "Tu cuenta está creada. Verifica tu correo con el código que te enviamos.",
};
const COMPANY_WELCOME = {
  tipo: "bienvenida",
  titulo: "¡Bienvenido!",
  mensaje: "Tu cuenta y tu empresa están creadas. Un administrador revisará la empresa; te avisaremos cuando pueda operar.",
};

const duplicateEmail = (address: string) => new ConflictError(`Ya existe una cuenta con el correo ${address}`);

/**
 * Creates the account, its primary location when given, a driver profile for drivers, the company
 * (waiting for review) of an account of type empresa, and the first e-mail verification code, all
 * in one transaction.
 */
export async function register(deps: Deps, input: RegisterInput) {
  const data = parseInput(registerSchema, input);
  await assertPasswordPolicy(data.password, data);
  assertCoordinatePair(data);
  const tipo_usuario = data.tipo_usuario ?? "pasajero";
  const company = signingUpCompany(tipo_usuario, data.empresa);
  if ((await deps.db.user.count({ where: { email: data.email } })) > 0) throw duplicateEmail(data.email);
  if (company) await assertNitFree(deps.db, company.nit);

  const password_hash = await hashPassword(data.password, deps.bcryptCost);
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
          ...(company ? { empresa: { create: { ...company, estado: "pendiente" } } } : {}),
        },
      });
      await savePrimaryLocation(tx, user.id, data);
      if (tipo_usuario === "conductor") {
        await tx.driverProfile.create({
          data: { conductor_id: user.id, nombre_completo: `${user.nombre} ${user.apellido}`, telefono: user.telefono },
        });
      }
      const mail = await issueVerificationCode(tx, deps, user);
      const welcome = await createNotification(tx, user.id, company ? COMPANY_WELCOME : WELCOME);
      return { user, mail, welcome };
    });
    deps.onMailQueued(mail);
    announce(deps, welcome);
    return user;
  } catch (error) {
    // Two sign-ups with one address (or one NIT) at the same moment: the unique indexes decide.
    if (isUniqueViolation(error)) {
      if (company) await assertNitFree(deps.db, company.nit);
      throw duplicateEmail(data.email);
    }
    throw error;
  }
}
