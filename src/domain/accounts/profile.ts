import { z } from "zod";
import { member, type Actor } from "../actor.js";
import type { Deps } from "../deps.js";
import { optional, parseChanges, phone, text, type Raw } from "../validation.js";
import { ACCOUNT_RULES } from "./access.js";
import { assertCoordinatePair, locationFields, savePrimaryLocation } from "./location.js";
import { getUser } from "./users.js";

// No e-mail here: the address is the login and is never changed by a profile update.
const updateSchema = z.object({
  nombre: optional(text(100)),
  apellido: optional(text(100)),
  telefono: optional(phone()),
  // "Verificar con PIN": their trips start only with the PIN they are shown (src/domain/trips/start-pin.ts).
  verificar_pin: optional(z.boolean({ error: "debe ser true o false" })),
  ...locationFields,
});

export type ProfileUpdate = Raw<typeof updateSchema>;

/** Updates only the fields sent, of the caller's own profile; location fields go to their primary location. */
export async function updateProfile(deps: Deps, actor: Actor, input: ProfileUpdate) {
  const userId = member(actor, ACCOUNT_RULES.own).id;
  const { nombre, apellido, telefono, verificar_pin, ...location } = parseChanges(updateSchema, input);
  assertCoordinatePair(location);
  await getUser(deps.db, userId);
  return deps.db.$transaction(async (tx) => {
    await savePrimaryLocation(tx, userId, location);
    // Always written, so actualizado_en moves even when only the location changed.
    return tx.user.update({ where: { id: userId }, data: { nombre, apellido, telefono, verificar_pin } });
  });
}
