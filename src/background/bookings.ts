import { bookingPass } from "../domain/booking/dispatch.js";
import { expireTripChanges } from "../domain/trips/changes.js";
import type { Deps } from "../domain/deps.js";
import type { DatabaseOutage } from "../domain/outage.js";
import { repeatPasses, type Passes } from "../domain/passes.js";

/**
 * Every process looks every `pollMs` (BOOKING_POLL_MS) for booked trips to remind of, dispatch or
 * end, and for trip changes their drivers did not answer in time, and does each once
 * (src/domain/booking/dispatch.ts, src/domain/trips/changes.ts): they happen while any process lives. A
 * pass that fails leaves them due for the next; while the database is away that is counted in its outage.
 */
export function startBookings(deps: Deps, options: { pollMs: number; database: DatabaseOutage }): Passes {
  const failed = options.database.caught(
    "bookings",
    "bookings: could not dispatch, end or remind of the reservations due; tried again next pass",
  );
  return repeatPasses(async (stopped) => {
    try {
      while (!stopped() && ((await bookingPass(deps)) || (await expireTripChanges(deps))));
    } catch (error) {
      failed(error);
    }
  }, options.pollMs);
}
