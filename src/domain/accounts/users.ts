import { z } from "zod";
import type { Db } from "../../db/client.js";
import type { ReadsOf } from "../../db/planned-reads.js";
import { authorize, type Actor } from "../actor.js";
import { NotFoundError } from "../errors.js";
import { email as emailSchema, exactlyOne, optional, parseInput, positiveId } from "../validation.js";
import { ACCOUNT_RULES } from "./access.js";

export async function getUser(db: ReadsOf<"user">, id: number) {
  const user = await db.user.findUnique({ where: { id, eliminado_en: null } });
  if (!user) throw new NotFoundError(`No existe un usuario con id ${id}`);
  return user;
}

export async function getUserByEmail(db: ReadsOf<"user">, email: string) {
  const user = await db.user.findUnique({ where: { email, eliminado_en: null } });
  if (!user) throw new NotFoundError(`No existe un usuario con el correo ${email}`);
  return user;
}

const lookupSchema = z.object({ userId: optional(positiveId()), email: optional(emailSchema()) });

/** A user looked up by exactly one of id or e-mail, for someone allowed to see their profile. */
export async function findUser(db: ReadsOf<"user">, actor: Actor, input: { userId?: number | null; email?: string | null }) {
  const { userId, email } = parseInput(lookupSchema, input);
  exactlyOne({ userId, email });
  const user = userId !== undefined ? await getUser(db, userId) : await getUserByEmail(db, email!);
  authorize(actor, ACCOUNT_RULES.viewProfile, user);
  return user;
}

const existsSchema = z.object({ email: emailSchema() });

export async function userExists(db: Db, input: { email: string }): Promise<boolean> {
  const { email } = parseInput(existsSchema, input);
  return (await db.user.count({ where: { email } })) > 0;
}
