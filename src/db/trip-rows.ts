import { Prisma, type Db, type Tx } from "./client.js";

/*
 * Reads of trips on the hot paths, in SQL: Prisma spends more of the process's time preparing
 * each of these than the database spends answering it.
 */

/** A user's trip in one of `states`, if any (the first found). */
export async function tripOfPassengerIn(
  tx: Tx,
  passengerId: number,
  states: readonly string[],
): Promise<{ id: number; estado: string } | null> {
  const [trip] = await tx.$queryRaw<Array<{ id: number; estado: string }>>`
    SELECT id, estado FROM viajes WHERE usuario_id = ${passengerId} AND estado IN (${Prisma.join(states)}) LIMIT 1`;
  return trip ? { id: Number(trip.id), estado: trip.estado } : null;
}

/** How many completed trips of an hour of the week have a plausible speed, and their average speed. */
export async function completedSpeeds(db: Db, hourOfWeek: number): Promise<{ trips: number; averageKmh: number | null }> {
  const [row] = await db.$queryRaw<Array<{ n: bigint | number; avg: number | null }>>`
    SELECT COUNT(*) AS n, AVG(velocidad_real_kmh) AS avg FROM viajes
    WHERE estado = 'completado' AND hora_semana = ${hourOfWeek} AND velocidad_real_kmh IS NOT NULL`;
  return { trips: Number(row?.n ?? 0), averageKmh: row?.avg == null ? null : Number(row.avg) };
}
