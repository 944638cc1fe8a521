import { z } from "zod";
import type { Deps } from "../deps.js";
import { optional, parseInput, phone, text, type Raw } from "../validation.js";
import { assertCoordinatePair, locationFields, savePrimaryLocation } from "./location.js";
import { getUser } from "./users.js";

// No e-mail here: the address is the login and is never changed by a profile update.
const updateSchema = z.object({
  nombre: optional(text(100)),
  apellido: optional(text(100)),
  telefono: optional(phone()),
  ...locationFields,
});

export type ProfileUpdate = Raw<typeof updateSchema>;

/** Updates only the fields sent; location fields go to the user's primary location. */
export async function updateProfile(deps: Deps, userId: number, input: ProfileUpdate) {
  const { nombre, apellido, telefono, ...location } = parseInput(updateSchema, input);
  assertCoordinatePair(location);
  await getUser(deps.db, userId);
  return deps.db.$transaction(async (tx) => {
    await savePrimaryLocation(tx, userId, location);
    // Always written, so actualizado_en moves even when only the location changed.
    return tx.user.update({ where: { id: userId }, data: { nombre, apellido, telefono } });
  });
}
