import type { Deps } from "../domain/deps.js";
import type { DatabaseOutage } from "../domain/outage.js";
import { repeatPasses, type Passes } from "../domain/passes.js";
import { escalateDue } from "../domain/safety/escalation.js";

/**
 * Every process looks for incidents due every `pollMs` (SOS_POLL_MS) and escalates each once (see escalate in
 * src/domain/safety/escalation.ts): they are escalated while any process lives. A pass that fails leaves them due for the
 * next; while the database is away that is counted in its outage.
 */
export function startSosEscalation(deps: Deps, options: { pollMs: number; database: DatabaseOutage }): Passes {
  const { pollMs, database } = options;
  const failed = database.caught("SOS escalations", "SOS escalation: could not escalate the incidents due; tried again next pass");
  return repeatPasses(async (stopped) => {
    try {
      while (!stopped() && (await escalateDue(deps)) === 100);
    } catch (error) {
      failed(error);
    }
  }, pollMs);
}
