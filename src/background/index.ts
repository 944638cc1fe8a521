import { followAccountChanges } from "../domain/accounts/sessions.js";
import {
  announcePositions,
  followPresences,
  loadPresences,
  POSITION_ANNOUNCE_MS,
  savePositions,
} from "../domain/matching/online-drivers.js";
import type { Passes } from "../domain/passes.js";
import { simulateDemoDrivers } from "../demo/simulator.js";
import type { Wired } from "../wiring.js";
import { startBookings } from "./bookings.js";
import { startCatchUp } from "./catch-up.js";
import { startDispatcher } from "./dispatcher.js";
import { startDocumentReminders } from "./document-reminders.js";
import { startSosEscalation } from "./sos-escalation.js";
import { startSosSweep } from "./sos-sweep.js";

/**
 * What every process keeps current from the moment it is built: who is signed in and who is
 * online, as the other processes announce it, and everything read again when Redis comes back.
 */
export async function followState({ deps, events, outage, log }: Wired) {
  const accountChanges = followAccountChanges(deps);
  // Followed before loading, so that nothing decided meanwhile is missed.
  const presences = followPresences(deps);
  await loadPresences(deps);
  // Who is online, read again from the database; if it is away, once it is back.
  const reloadPresences = (): Promise<void> =>
    loadPresences(deps).catch((error) => {
      if (outage.report("presence reloads", error)) outage.whenBack(reloadPresences);
      else log.error({ err: error }, "could not read the drivers online again after Redis came back");
    });
  // What other processes announced while Redis was away never arrives: callers are read again, and
  // who is online is read again from the database.
  events.onRecovered(() => {
    deps.callers.clear();
    deps.matching.presence.forgetAll();
    void reloadPresences();
  });
  return {
    /** Stores the positions drivers reported; those that cannot be stored wait for the next flush. */
    flushPositions: () => savePositions(deps).catch(outage.caught("position flushes", "could not store driver positions")),
    stop: async () => {
      await presences.stop();
      await accountChanges.stop();
    },
  };
}

export type FollowedState = Awaited<ReturnType<typeof followState>>;

/** The loops a test nudges instead of waiting for them. */
export interface Work {
  dispatcher: Passes;
  reminders: Passes;
  escalation: Passes;
  bookings: Passes;
  stop(): Promise<void>;
}

/**
 * Every loop a process runs of its own accord: sending the waves of trip requests, mail, document
 * reminders, escalating SOSs nobody acknowledged, storing and announcing driver positions, catching
 * up while Redis is away (and on SOSs another process could not announce), dispatching, ending and
 * reminding of booked trips, moving the demo drivers.
 */
export function startWork({ config, deps, events, outage, mail }: Wired, state: FollowedState): Work {
  const demoDrivers = config.DEMO_DATA
    ? simulateDemoDrivers(deps, outage.caught("demo position reports", "demo drivers could not report their positions"))
    : null;
  // Once the drivers online are known (followState): a wave sent before would find nobody to go to.
  const dispatcher = startDispatcher(deps, { pollMs: config.DISPATCH_POLL_MS, database: outage });
  const stopCatchUp = startCatchUp(deps, events, outage);
  const reminders = startDocumentReminders(deps, outage);
  const escalation = startSosEscalation(deps, { pollMs: config.SOS_POLL_MS, database: outage });
  const bookings = startBookings(deps, { pollMs: config.BOOKING_POLL_MS, database: outage });
  const stopSosSweep = startSosSweep(deps, events, outage);
  const flushing = setInterval(state.flushPositions, config.POSITION_FLUSH_MS);
  const announcing = setInterval(() => announcePositions(deps), POSITION_ANNOUNCE_MS);
  mail.start();
  return {
    dispatcher,
    reminders,
    escalation,
    bookings,
    stop: async () => {
      demoDrivers?.stop();
      await dispatcher.stop();
      await reminders.stop();
      await escalation.stop();
      await bookings.stop();
      stopSosSweep();
      clearInterval(flushing);
      clearInterval(announcing);
      stopCatchUp();
    },
  };
}
