import { isUniqueViolation } from "../../db/client.js";
import type { Deps } from "../deps.js";
import { email, fieldParser } from "../validation.js";
import { assertPasswordPolicy, hashPassword } from "./password.js";

const parseAdminEmail = fieldParser("ADMIN_EMAIL", email());
const ADMIN_NAME = { nombre: "Administrador", apellido: "Principal" };

/** Creates the first administrator from configuration, unless an administrator already exists. */
export async function ensureInitialAdmin(deps: Deps, input: { email: string; password: string }) {
  const address = parseAdminEmail(input.email);
  await assertPasswordPolicy(input.password, { email: address, ...ADMIN_NAME }, "ADMIN_PASSWORD");
  if ((await deps.db.user.count({ where: { tipo_usuario: "admin", eliminado_en: null } })) > 0) return null;
  try {
    return await deps.db.user.create({
      data: {
        email: address,
        password_hash: await hashPassword(input.password, deps.bcryptCost),
        ...ADMIN_NAME,
        telefono: "0000000",
        tipo_usuario: "admin",
        es_verificado: true,
      },
    });
  } catch (error) {
    // Another process starting at the same moment created it first.
    if (isUniqueViolation(error)) return null;
    throw error;
  }
}
