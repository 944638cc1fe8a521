import { z } from "zod";
import type { Tx } from "../../db/client.js";
import { lockUser } from "../../db/locks.js";
import { owner, type Actor } from "../actor.js";
import { SAFETY_RULES } from "./access.js";
import type { Deps } from "../deps.js";
import { ConflictError, NotFoundError, ValidationError } from "../errors.js";
import { colombianMobile, email, optional, parseInput, positiveId, text, type Raw } from "../validation.js";

/** How many emergency contacts a person keeps. */
export const MAX_CONTACTS = 3;

const contactSchema = z.object({ nombre: text(100), telefono: optional(colombianMobile()), email: optional(email()) });
const removalSchema = z.object({ contacto_id: positiveId() });

/** A person's emergency contacts, oldest first. */
export const contactsOf = (tx: Tx, usuarioId: number) =>
  tx.emergencyContact.findMany({ where: { usuario_id: usuarioId }, orderBy: { id: "asc" } });

/** The caller's emergency contacts. */
export function emergencyContacts(deps: Deps, actor: Actor) {
  return contactsOf(deps.db, owner(actor, SAFETY_RULES.own).id);
}

/**
 * The caller adds an emergency contact: a name and a Colombian mobile, an e-mail or both. The
 * count is checked holding the caller's row, so two additions at once never make a fourth.
 */
export async function addEmergencyContact(deps: Deps, actor: Actor, input: Raw<typeof contactSchema>) {
  const me = owner(actor, SAFETY_RULES.own);
  const { nombre, telefono, email } = parseInput(contactSchema, input);
  if (!telefono && !email)
    throw new ValidationError("es obligatorio si no das un correo: indica un celular, un correo o ambos", "telefono");
  return deps.db.$transaction(async (tx) => {
    await lockUser(tx, deps.provider, me.id);
    if ((await tx.emergencyContact.count({ where: { usuario_id: me.id } })) >= MAX_CONTACTS) {
      throw new ConflictError(`Ya tienes ${MAX_CONTACTS} contactos de emergencia; quita uno para agregar otro`);
    }
    return tx.emergencyContact.create({
      data: { usuario_id: me.id, nombre, telefono: telefono ?? null, email: email ?? null, creado_en: deps.clock.now() },
    });
  });
}

/** The caller removes one of their emergency contacts; anyone else's is as unknown as one that never was. */
export async function removeEmergencyContact(deps: Deps, actor: Actor, input: Raw<typeof removalSchema>) {
  const me = owner(actor, SAFETY_RULES.own);
  const { contacto_id } = parseInput(removalSchema, input);
  const { count } = await deps.db.emergencyContact.deleteMany({ where: { id: contacto_id, usuario_id: me.id } });
  if (count === 0) throw new NotFoundError(`No tienes un contacto de emergencia con id ${contacto_id}`);
  return contacto_id;
}
