import { z } from "zod";
import type { Prisma } from "../../db/client.js";
import type { Reservation } from "../../db/models.js";
import { authorize, type Actor } from "../actor.js";
import type { Deps } from "../deps.js";
import { optional, parseInput, type Raw } from "../validation.js";
import { RESERVATION_RULES } from "./access.js";

/** The most one list holds: far more than a city books for the week ahead that reservations span. */
const LISTED = 500;

const listSchema = z.object({ estado: optional(z.enum(["programada", "despachada", "cancelada", "vencida"])) });

/** A list's filters: the pickup from `desde` on (now when not given), of one state or all. */
export type ListFilters = Raw<typeof listSchema> & { desde?: Date | null };

/** A reservation as the console lists it, with the full name of the driver committed to it. */
export type ListedReservation = Reservation & { conductor_nombre: string | null };

/**
 * The reservations `scope` picks that are picked up from `desde` on, soonest first, with their
 * drivers' names read for the whole list at once.
 */
export async function reservationsWithin(
  deps: Pick<Deps, "db" | "clock">,
  scope: Prisma.ReservationWhereInput,
  input: ListFilters,
): Promise<ListedReservation[]> {
  const { estado } = parseInput(listSchema, input);
  const rows = await deps.db.reservation.findMany({
    where: { ...scope, fecha_programada: { gte: input.desde ?? deps.clock.now() }, ...(estado ? { estado } : {}) },
    orderBy: [{ fecha_programada: "asc" }, { id: "asc" }],
    take: LISTED,
  });
  const driverIds = [...new Set(rows.flatMap((row) => (row.conductor_id === null ? [] : [row.conductor_id])))];
  const drivers =
    driverIds.length === 0
      ? []
      : await deps.db.user.findMany({ where: { id: { in: driverIds } }, select: { id: true, nombre: true, apellido: true } });
  const names = new Map(drivers.map((driver) => [driver.id, `${driver.nombre} ${driver.apellido}`.trim()]));
  return rows.map((row) => ({ ...row, conductor_nombre: row.conductor_id === null ? null : (names.get(row.conductor_id) ?? null) }));
}

/** Every reservation, for the console: administrators. */
export async function searchReservations(deps: Deps, actor: Actor, input: ListFilters): Promise<ListedReservation[]> {
  authorize(actor, RESERVATION_RULES.search);
  return reservationsWithin(deps, {}, input);
}
