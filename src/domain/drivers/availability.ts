import type { Tx } from "../../db/client.js";

/**
 * Online time is kept as periods (statistics add them up): going online opens one, going
 * offline closes it. Both are idempotent.
 */
export async function openOnlinePeriod(tx: Tx, conductorId: number, now: Date): Promise<void> {
  const open = await tx.onlinePeriod.findFirst({ where: { conductor_id: conductorId, fin: null } });
  if (!open) await tx.onlinePeriod.create({ data: { conductor_id: conductorId, inicio: now } });
}

export async function closeOnlinePeriod(tx: Tx, conductorId: number, now: Date): Promise<void> {
  await tx.onlinePeriod.updateMany({ where: { conductor_id: conductorId, fin: null }, data: { fin: now } });
}

/** Takes a driver offline (suspension, deactivation): no more trip requests until they come back. */
export async function takeOffline(tx: Tx, conductorId: number, now: Date): Promise<void> {
  await tx.driverStatus.updateMany({ where: { conductor_id: conductorId }, data: { disponible: false } });
  await closeOnlinePeriod(tx, conductorId, now);
}

/** Puts a driver back online after a trip ends, where their phone last placed them. */
export async function returnOnline(tx: Tx, conductorId: number, now: Date): Promise<void> {
  await tx.driverStatus.update({ where: { conductor_id: conductorId }, data: { disponible: true } });
  await openOnlinePeriod(tx, conductorId, now);
}
