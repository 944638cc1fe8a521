import type { Payout } from "../../db/models.js";
import type { Deps } from "../deps.js";

/** The key every payout is also announced under, for administrators who follow them all (no driver is 0). */
export const EVERY_DRIVER = 0;

/** Tells listeners a driver's balance moved; call once the change has committed. */
export const announceBalance = (deps: Pick<Deps, "events">, conductorId: number) =>
  deps.events.publish("saldo", conductorId, { conductor_id: conductorId });

/** Tells listeners a payout changed, and so its driver's balance; call once the change has committed. */
export function announcePayout(deps: Pick<Deps, "events">, payout: Payout): void {
  deps.events.publish("retiro", payout.conductor_id, payout);
  deps.events.publish("retiro", EVERY_DRIVER, payout);
  announceBalance(deps, payout.conductor_id);
}
