import type { Actor } from "../actor.js";
import type { Deps } from "../deps.js";
import { subjectDriver } from "../drivers/access.js";
import { loadDriver } from "../drivers/readiness.js";
import { balanceOf } from "./ledger.js";

/** A driver's balance in the ledger: what the platform owes them (disponible) or they owe it (deuda), in whole pesos. */
export async function driverBalance(deps: Deps, actor: Actor, conductor?: number | null) {
  const conductorId = subjectDriver(actor, conductor);
  await loadDriver(deps.db, conductorId);
  const saldo = await balanceOf(deps.db, conductorId);
  return { conductor_id: conductorId, saldo, disponible: Math.max(0, saldo), deuda: Math.max(0, -saldo) };
}

export type DriverBalance = Awaited<ReturnType<typeof driverBalance>>;
