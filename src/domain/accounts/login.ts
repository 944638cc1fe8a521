import { z } from "zod";
import type { Actor } from "../actor.js";
import type { Deps } from "../deps.js";
import { AccountDisabledError, DomainError, InvalidCredentialsError } from "../errors.js";
import { email, optional, parseInput } from "../validation.js";
import { deviceId, trustDevice } from "./devices.js";
import { verifyPassword } from "./password.js";
import { openSession } from "./sessions.js";
import { accountBlockReason } from "./standing.js";
import { throttle } from "./throttle.js";
import { getUserByEmail } from "./users.js";

const loginSchema = z.object({
  email: email(),
  password: z.string({ error: "es obligatorio" }).min(1, "no puede estar vacío"),
  device_uuid: optional(deviceId()),
});

/**
 * The account whose password this is. An attempt the service could not judge (the database away)
 * is not counted against the account, or an outage would lock out everyone who tried to log in.
 */
async function checkedPassword(deps: Deps, credentials: { email: string; password: string }) {
  try {
    const user = await getUserByEmail(deps.db, credentials.email);
    if (!(await verifyPassword(credentials.password, user.password_hash))) {
      throw new InvalidCredentialsError("La contraseña no es correcta");
    }
    return user;
  } catch (error) {
    if (!(error instanceof DomainError)) await deps.limits.loginPerEmail.refund(credentials.email).catch(() => undefined);
    throw error;
  }
}

/**
 * Checks the password and opens a session. Every attempt counts against the caller's address and
 * the e-mail (counted before the slow password check, so simultaneous guesses cannot slip past
 * the limit); a successful login clears the e-mail's count and trusts the device it came from.
 */
export async function login(deps: Deps, actor: Actor, input: { email: string; password: string; device_uuid?: string | null }) {
  const credentials = parseInput(loginSchema, input);
  await throttle(deps.limits.loginPerAddress, actor.address ?? "desconocida", "Demasiados intentos de inicio de sesión desde tu conexión");
  await throttle(deps.limits.loginPerEmail, credentials.email, "Demasiados intentos fallidos con esta cuenta");
  const user = await checkedPassword(deps, credentials);
  // Checked after the password so that the account's state is only told to its owner.
  const blocked = accountBlockReason(user);
  if (blocked) throw new AccountDisabledError(blocked);
  await deps.limits.loginPerEmail.reset(credentials.email);
  // The phone proved the password: it is trusted even should opening the session fail.
  if (credentials.device_uuid) await trustDevice(deps.db, user.id, credentials.device_uuid, deps.clock.now());
  return { user, ...(await openSession(deps, user.id, actor.address)) };
}
