import { z } from "zod";
import type { Actor } from "../actor.js";
import type { AttemptCounter, Deps } from "../deps.js";
import { AccountDisabledError, InvalidCredentialsError, RateLimitError } from "../errors.js";
import { email, parseInput } from "../validation.js";
import { verifyPassword } from "./password.js";
import { openSession } from "./sessions.js";
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

/** Counts an attempt and refuses it (429) when the key is over its limit. */
async function throttle(counter: AttemptCounter, key: string, message: string): Promise<void> {
  const waitMs = await counter.hit(key);
  if (waitMs > 0) {
    const seconds = Math.ceil(waitMs / 1000);
    throw new RateLimitError(`${message}; intenta de nuevo en ${seconds} segundos`, seconds);
  }
}

/**
 * Checks the password and opens a session. Every attempt counts against the caller's address and
 * the e-mail (counted before the slow password check, so simultaneous guesses cannot slip past
 * the limit); a successful login clears the e-mail's count.
 */
export async function login(deps: Deps, actor: Actor, input: { email: string; password: string }) {
  const credentials = parseInput(loginSchema, input);
  await throttle(deps.limits.loginPerAddress, actor.address ?? "desconocida", "Demasiados intentos de inicio de sesión desde tu conexión");
  await throttle(deps.limits.loginPerEmail, credentials.email, "Demasiados intentos fallidos con esta cuenta");
  const user = await getUserByEmail(deps.db, credentials.email);
  if (!(await verifyPassword(credentials.password, user.password_hash))) {
    throw new InvalidCredentialsError("La contraseña no es correcta");
  }
  // Checked after the password so that the account's state is only told to its owner.
  const blocked = accountBlockReason(user);
  if (blocked) throw new AccountDisabledError(blocked);
  await deps.limits.loginPerEmail.reset(credentials.email);
  return { user, ...(await openSession(deps, user.id, actor.address)) };
}
