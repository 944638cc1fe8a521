import { z } from "zod";
import { member, type Actor } from "../actor.js";
import type { Deps } from "../deps.js";
import { InvalidCredentialsError, ValidationError } from "../errors.js";
import { parseInput } from "../validation.js";
import { ACCOUNT_RULES } from "./access.js";
import { assertPasswordPolicy, hashPassword, verifyPassword } from "./password.js";
import { announceRevoked, openSession, revokeUserAccess } from "./sessions.js";
import { getUser } from "./users.js";

const changeSchema = z.object({
  actual: z.string({ error: "es obligatorio" }).min(1, "no puede estar vacío"),
  nueva: z.string({ error: "es obligatorio" }),
});

/**
 * Changes the caller's password. Every session of theirs ends, on every device; the caller gets
 * a fresh one so that changing a password does not sign them out of the device they used.
 */
export async function changePassword(deps: Deps, actor: Actor, input: { actual: string; nueva: string }) {
  const me = member(actor, ACCOUNT_RULES.session);
  const { actual, nueva } = parseInput(changeSchema, input);
  const user = await getUser(deps.db, me.id);
  if (!(await verifyPassword(actual, user.password_hash))) throw new InvalidCredentialsError("La contraseña actual no es correcta");
  await assertPasswordPolicy(nueva, user, "nueva");
  if (actual === nueva) throw new ValidationError("debe ser distinta de la actual", "nueva");
  const password_hash = await hashPassword(nueva, deps.bcryptCost);
  const { updated, revoked } = await deps.db.$transaction(async (tx) => ({
    updated: await tx.user.update({ where: { id: me.id }, data: { password_hash } }),
    revoked: await revokeUserAccess(tx, me.id, deps.clock.now()),
  }));
  announceRevoked(deps, revoked);
  return { user: updated, ...(await openSession(deps, me.id, me.address)) };
}
