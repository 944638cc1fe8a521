import type { Prisma } from "../../db/client.js";
import { containsIgnoringCase } from "../../db/search.js";
import { byColumn, type Sorting } from "../paging.js";
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

/** How lists of drivers sort: the administrators' review queue and a company's fleet. */
export const DRIVER_SORTS = ["fecha_solicitud", "id", "nombre", "email", "fecha_creacion", "fecha_aprobacion"] as const;

type DriverOrder = Prisma.DriverProfileOrderByWithRelationInput;
/** Dates a driver may not have yet go after the rest, whichever the order. */
const nullsLast =
  (name: "fecha_solicitud" | "fecha_aprobacion") =>
  (order: Prisma.SortOrder): DriverOrder => ({ [name]: { sort: order, nulls: "last" } });

export const DRIVER_SORTING: Sorting<(typeof DRIVER_SORTS)[number], DriverOrder> = {
  columns: {
    fecha_solicitud: nullsLast("fecha_solicitud"),
    id: byColumn("id"),
    nombre: (order) => [{ conductor: { nombre: order } }, { conductor: { apellido: order } }],
    email: (order) => ({ conductor: { email: order } }),
    fecha_creacion: byColumn("fecha_creacion"),
    fecha_aprobacion: nullsLast("fecha_aprobacion"),
  },
  sort: "fecha_solicitud",
  order: "asc",
};
