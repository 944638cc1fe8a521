import { z } from "zod";
import type { Deps } from "../deps.js";
import { AccountDisabledError, InvalidCredentialsError } from "../errors.js";
import { email, parseInput } from "../validation.js";
import { verifyPassword } from "./password.js";
import { getUserByEmail } from "./users.js";

const loginSchema = z.object({
  email: email(),
  password: z.string({ error: "es obligatorio" }).min(1, "no puede estar vacío"),
});

/** An account that may not sign in: deactivated by an administrator or suspended. */
export function accountBlockReason(user: { es_activo: boolean; fecha_suspension: Date | null; motivo_suspension: string | null }) {
  if (user.fecha_suspension) return `La cuenta está suspendida: ${user.motivo_suspension ?? "sin motivo registrado"}`;
  if (!user.es_activo) return "La cuenta está inactiva";
  return null;
}

export async function login(deps: Deps, input: { email: string; password: string }) {
  const credentials = parseInput(loginSchema, input);
  const user = await getUserByEmail(deps.db, credentials.email);
  if (!(await verifyPassword(credentials.password, user.password_hash))) {
    throw new InvalidCredentialsError("La contraseña no es correcta");
  }
  // Checked after the password so that the account's state is only told to its owner.
  const blocked = accountBlockReason(user);
  if (blocked) throw new AccountDisabledError(blocked);
  return user;
}
