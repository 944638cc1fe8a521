import type { Deps } from "../domain/deps.js";
import { openOffers, tripsChangedSince } from "../domain/matching/missed.js";
import type { DatabaseOutage } from "../domain/outage.js";
import type { AppEvents } from "../events/bus.js";

/** How often, while Redis is away, what other processes announced is read from the database. */
const CATCH_UP_MS = 1000;
/** Changes and offers made this long before the outage was noticed may be missed too: Redis may have dropped them in flight. */
const MARGIN_MS = 2000;

/**
 * While Redis is away, events announced on other processes never arrive here. Every second, and
 * once more when it is back, the trips followed on this process whose state changed since the
 * outage began, and the requests offered since then to the drivers listening here, are read from
 * the database and handed to their listeners: live screens lag by a second instead of missing the
 * change. Listeners drop what they already had (followTrip keeps only a state further along,
 * tripRequests each new request once).
 */
export function startCatchUp(deps: Deps, events: AppEvents, database: DatabaseOutage): () => void {
  /** Changes and offers since then may have been missed; null while nothing is. */
  let since: Date | null = null;
  let running = false;

  async function pass(from: Date): Promise<void> {
    const started = deps.clock.now();
    const [trips, offers] = await Promise.all([
      tripsChangedSince(deps, events.listening("viaje"), from),
      openOffers(deps, events.listening("solicitud_viaje"), from),
    ]);
    for (const trip of trips) events.deliverHere("viaje", trip.id, trip);
    for (const { conductor_id, viaje } of offers) events.deliverHere("solicitud_viaje", conductor_id, { tipo: "nueva", viaje });
    since = new Date(started.getTime() - MARGIN_MS);
  }

  const timer = setInterval(() => {
    const away = !events.status().connected;
    if (running || (!away && since === null)) return;
    since ??= new Date(deps.clock.now().getTime() - MARGIN_MS);
    running = true;
    pass(since)
      // The pass after Redis is back is the last one; one that failed is tried again.
      .then(
        () => {
          if (!away) since = null;
        },
        database.caught("event catch-ups", "could not read the events missed while Redis was away"),
      )
      .finally(() => (running = false));
  }, CATCH_UP_MS);
  timer.unref();
  return () => clearInterval(timer);
}
