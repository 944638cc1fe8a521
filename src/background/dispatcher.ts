import type { Deps } from "../domain/deps.js";
import type { DatabaseOutage } from "../domain/outage.js";
import { repeatPasses, type Passes } from "../domain/passes.js";
import { sendDueWaves } from "../domain/matching/dispatch.js";

/**
 * How long a process's claim on a trip's wave lasts: many times what sending a wave takes (a few
 * statements), and short enough that a wave whose process died while sending it still goes out
 * less than 2 s late.
 */
const LEASE_MS = 1500;

/**
 * Sends the waves that fall due, every `pollMs` and whenever nudged. Every process runs one: the
 * due times are in the database and each wave is claimed by one process (see sendDueWaves), so
 * waves go out while any process lives, and a pass that fails leaves them due for the next. A
 * database that cannot serve is counted in its outage; any other failure is logged once until a
 * pass succeeds again.
 */
export function startDispatcher(deps: Deps, options: { pollMs: number; database: DatabaseOutage }): Passes {
  let failing = false;
  return repeatPasses(async (stopped) => {
    try {
      while (!stopped() && (await sendDueWaves(deps, LEASE_MS)));
      if (failing) deps.log.info({}, "dispatch: waves go out again");
      failing = false;
    } catch (error) {
      if (options.database.report("dispatch passes", error) || failing) return;
      failing = true;
      deps.log.error({ err: error }, "dispatch: waves cannot be sent; they wait in the database");
    }
  }, options.pollMs);
}
