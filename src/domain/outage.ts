import { unavailableReason } from "../db/client.js";
import type { Logger } from "./deps.js";

/** While an outage lasts, it is recalled at most this often. */
const REMIND_EVERY_MS = 60_000;
/** How often a database that is away is asked whether it answers again. */
const PROBE_MS = 1000;

export interface OutageWords {
  /** Logged at warn when it starts failing, and at most once a minute while it goes on. */
  failing: string;
  /** Logged at info once it answers again, with how long it was away and what failed meanwhile. */
  back: string;
}

export interface Outage {
  /** Counts one `what` (a request, a position flush, a relay pass…) that failed because of `problem`. */
  failed(what: string, problem: string): void;
  /** It answers again: logged once, when it was away. */
  recovered(): void;
  readonly away: boolean;
}

/**
 * Something the service depends on that may be away for a while (the database, the mail server):
 * an outage is one warning when it starts, a reminder at most once a minute while it lasts, and
 * one line when it ends, with what failed meanwhile; never a line per failure.
 */
export function outage(log: Logger, words: OutageWords): Outage {
  let since: number | null = null;
  let remindedAt = 0;
  let failed: Record<string, number> = {};
  const summary = (now: number) => ({
    down_s: Math.round((now - since!) / 1000),
    failures: Object.values(failed).reduce((sum, count) => sum + count, 0),
    failed,
  });
  return {
    failed(what, problem) {
      const now = Date.now();
      failed[what] = (failed[what] ?? 0) + 1;
      if (since === null) {
        since = remindedAt = now;
        log.warn({ problem, first: what }, words.failing);
      } else if (now - remindedAt >= REMIND_EVERY_MS) {
        remindedAt = now;
        log.warn({ problem, ...summary(now) }, words.failing);
      }
    },
    recovered() {
      if (since === null) return;
      log.info(summary(Date.now()), words.back);
      since = null;
      failed = {};
    },
    get away() {
      return since !== null;
    },
  };
}

export interface DatabaseOutage {
  /**
   * Counts a failure of `what` when `error` says the database cannot serve now (see
   * unavailableReason), and answers whether it did; any other error is the caller's to handle.
   */
  report(what: string, error: unknown): boolean;
  /** A handler for the failures of background work: counted as `what` while the database is away, logged as errors otherwise. */
  caught(what: string, message: string): (error: unknown) => void;
  /** Runs `task` once the database answers again; at once when it is not away. */
  whenBack(task: () => void): void;
  /** No more asking (the service is stopping). */
  stop(): void;
}

/**
 * The database as one process sees it: while it is away (lost, refused, restarting, too busy),
 * what failed for it is counted, not logged one by one; it is asked every second whether it
 * answers again, and when it does the outage is logged as over and the work that waited for it runs.
 */
export function databaseOutage(log: Logger, ping: () => Promise<unknown>): DatabaseOutage {
  const state = outage(log, {
    failing: "database unavailable: requests are answered 503 and background work waits",
    back: "database available again",
  });
  const waiting: Array<() => void> = [];
  let probe: NodeJS.Timeout | undefined;
  let stopped = false;

  function ask() {
    probe = setTimeout(() => {
      ping().then(
        () => {
          probe = undefined;
          if (stopped) return;
          state.recovered();
          for (const task of waiting.splice(0)) task();
        },
        () => {
          if (!stopped) ask();
        },
      );
    }, PROBE_MS).unref();
  }

  const report = (what: string, error: unknown) => {
    const reason = unavailableReason(error);
    if (reason === null) return false;
    state.failed(what, reason);
    if (!probe && !stopped) ask();
    return true;
  };
  return {
    report,
    caught: (what, message) => (error) => {
      if (!report(what, error)) log.error({ err: error }, message);
    },
    whenBack(task) {
      if (state.away) waiting.push(task);
      else task();
    },
    stop() {
      stopped = true;
      clearTimeout(probe);
    },
  };
}
