import type { Db, Prisma } from "../../db/client.js";
import { TRIP_STATES } from "../trip-states.js";

/** How many of the trips `where` picks are in each state, every state listed, counted by the database. */
export async function tripsByState(db: Db, where: Prisma.TripWhereInput) {
  const groups = await db.trip.groupBy({ by: ["estado"], where, _count: { _all: true } });
  const counts = new Map(groups.map((group) => [group.estado, group._count._all]));
  return TRIP_STATES.map((estado) => ({ estado, cantidad: counts.get(estado) ?? 0 }));
}

/** The sum of counts, as tripsByState gives them. */
export const total = (counts: Array<{ cantidad: number }>) => counts.reduce((sum, { cantidad }) => sum + cantidad, 0);
