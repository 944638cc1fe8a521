import type { Prisma } from "../../db/client.js";
import { containsIgnoringCase } from "../../db/search.js";
import type { Deps } from "../deps.js";
import type { Presence } from "../presence/presence.js";
import { normalizePlate } from "./profile.js";

/** Drivers whose name, e-mail, phone or plate contains `search`; a plate is matched as stored, in capitals without separators. */
export function searchingDrivers(deps: Pick<Deps, "provider">, search: string): Prisma.DriverProfileWhereInput {
  const like = containsIgnoringCase(deps.provider, search);
  const plate = normalizePlate(search);
  return {
    OR: [
      { conductor: { OR: [{ nombre: like }, { apellido: like }, { email: like }, { telefono: like }] } },
      { nombre_completo: like },
      { telefono: like },
      ...(plate ? [{ vehiculo: { placa: containsIgnoringCase(deps.provider, plate) } }] : []),
    ],
  };
}

/**
 * Drivers connected now whom `which` picks (`present`), or everyone else: every process knows every
 * driver online or on a trip (see presence/presence.ts).
 */
export function byPresence(
  deps: Pick<Deps, "matching">,
  which: (driver: Presence) => boolean,
  present: boolean,
): Prisma.DriverProfileWhereInput {
  const ids = [...deps.matching.presence.all()].filter(which).map((driver) => driver.conductor_id);
  return { conductor_id: present ? { in: ids } : { notIn: ids } };
}
