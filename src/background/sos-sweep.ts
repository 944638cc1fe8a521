import type { Deps } from "../domain/deps.js";
import type { DatabaseOutage } from "../domain/outage.js";
import { SosSweep } from "../domain/safety/sos-feed.js";
import { SOS_EVERYONE } from "../domain/safety/sos-views.js";
import type { AppEvents } from "../events/bus.js";

/** How often a process with SOS listeners reads what they may have missed. */
const SWEEP_MS = 1000;

/**
 * An SOS is announced once it commits. A process killed right then, or Redis away, leaves other
 * processes' consoles without it: every second, each process with SOS listeners reads the steps
 * written since (sos-feed.ts) and hands their incidents to its own listeners, who drop what they
 * already had. Its events still bring each change at once; this bounds a lost one to a second.
 */
export function startSosSweep(deps: Deps, events: AppEvents, database: DatabaseOutage): () => void {
  let sweep = new SosSweep();
  let running = false;
  const failed = database.caught("SOS sweeps", "could not read the SOS steps other processes may not have announced");
  const timer = setInterval(() => {
    const keys = events.listening("sos");
    // Nobody to tell: the next listener reads the open incidents itself, and the sweep starts afresh.
    if (keys.length === 0) sweep = new SosSweep();
    if (running || keys.length === 0) return;
    running = true;
    sweep
      .changes(deps)
      .then((views) => {
        for (const view of views) {
          for (const key of keys) if (key === SOS_EVERYONE || key === view.empresa_id) events.deliverHere("sos", key, view);
        }
      })
      .catch(failed)
      .finally(() => (running = false));
  }, SWEEP_MS);
  timer.unref();
  return () => clearInterval(timer);
}
