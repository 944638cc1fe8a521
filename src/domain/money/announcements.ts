import type { Payout } from "../../db/models.js";
import type { Deps } from "../deps.js";
import { feedKey, holderOf } from "./holders.js";

/** The key every payout is also announced under, for administrators who follow them all (no driver is 0). */
export const EVERY_DRIVER = 0;

/** Tells listeners a driver's balance moved; call once the change has committed. */
export const announceBalance = (deps: Pick<Deps, "events">, conductorId: number) =>
  deps.events.publish("saldo", conductorId, { conductor_id: conductorId });

/** Tells listeners a payout changed, and so its holder's balance; call once the change has committed. */
export function announcePayout(deps: Pick<Deps, "events">, payout: Payout): void {
  const holder = holderOf(payout);
  deps.events.publish("retiro", feedKey(holder), payout);
  deps.events.publish("retiro", EVERY_DRIVER, payout);
  if (holder.conductor_id !== null) announceBalance(deps, holder.conductor_id);
}
