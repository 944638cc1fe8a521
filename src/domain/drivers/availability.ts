import type { Tx } from "../../db/client.js";
import { authorize, type Actor } from "../actor.js";
import { managesDriver } from "../company-scope.js";
import type { Deps } from "../deps.js";
import { activeTripOf } from "../matching/online-drivers.js";
import type { Presence } from "../presence/presence.js";
import { DRIVER_RULES } from "./access.js";

/**
 * Online time is kept as periods (statistics add them up): going online opens one, going
 * offline closes it. Both are idempotent, so a phone that says it is online twice counts once.
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

export interface DriverStatus {
  conductor_id: number;
  disponible: boolean;
  latitud: number | null;
  longitud: number | null;
  posicion_en: Date | null;
  viaje_activo_id: number | null;
}

/** A driver this process knows (online or on a trip), as their status. */
export const statusOf = (known: Presence): DriverStatus => ({
  conductor_id: known.conductor_id,
  disponible: known.disponible,
  latitud: known.posicion?.latitud ?? null,
  longitud: known.posicion?.longitud ?? null,
  posicion_en: known.posicion?.at ?? null,
  viaje_activo_id: known.viaje_activo_id,
});

/** What this process knows of a driver (the freshest position), else what the database last stored. */
export async function currentStatus(deps: Deps, conductorId: number): Promise<DriverStatus> {
  const known = deps.matching.presence.get(conductorId);
  if (known) return statusOf(known);
  const [status, trip] = await Promise.all([
    deps.db.driverStatus.findUnique({ where: { conductor_id: conductorId } }),
    activeTripOf(deps.db, conductorId),
  ]);
  return {
    conductor_id: conductorId,
    disponible: status?.disponible ?? false,
    latitud: status?.latitud ?? null,
    longitud: status?.longitud ?? null,
    posicion_en: status?.posicion_en ?? null,
    viaje_activo_id: trip?.id ?? null,
  };
}

/**
 * Whether a driver is online and where: for the driver, administrators, and the managers of the
 * driver's company, who follow their fleet on the live map.
 */
export async function driverStatus(deps: Deps, actor: Actor, conductorId: number): Promise<DriverStatus> {
  const followsFleet = !DRIVER_RULES.read.allows(actor, conductorId) && (await managesDriver(deps, actor, conductorId));
  if (!followsFleet) authorize(actor, DRIVER_RULES.read, conductorId);
  return currentStatus(deps, conductorId);
}
