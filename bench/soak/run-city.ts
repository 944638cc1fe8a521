import { randomBytes } from "node:crypto";
import { loadavg } from "node:os";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import { loadLine } from "../table.js";
import { inParallel, newDriver, newPassenger, signInAdmin } from "./accounts.js";
import { type Blow, plan, unleash } from "./chaos.js";
import { CREATE_TRIP, City, Driver, Passenger, type RequestRecord } from "./city.js";
import { Api, Census, percentile } from "./client.js";
import { type Owned, progress } from "./lifecycle.js";
import type { CityOptions } from "./options.js";
import { seeded } from "./random.js";
import { censusTable, crashLines, type Line, logLines, ms, none, percentiles, subscriptionLines, summaryTable, times } from "./report.js";
import { startSmtp } from "../../test/support/smtp.js";
import { addContacts, sosLines, sosSettings, sosSettled } from "./sos.js";
import { bookAhead, bookingLines, bookingSettings } from "./bookings.js";
import { type Stack, startStack } from "./stack.js";
import { liveClient } from "./ws.js";
import { ACTIVE_STATES, type StoredTrip, storedTrips, tripsByMarker } from "./stored.js";

/** Onboarding calls at once: enough to be quick, few enough to leave the processes room. */
const SETUP_WIDTH = 4;

/**
 * The city: drivers and passengers on every process while processes, Redis and PostgreSQL are
 * struck; then a grace period with everything back, and the database's account of every request.
 * Answers the exit code: 1 when a trip was lost, stuck or duplicated, a 5xx other than 503 was
 * answered (or a subscription ended with an internal error), or a process crashed.
 */
export async function runCity(owned: Owned, options: CityOptions): Promise<number> {
  const loadBefore = loadavg();
  const random = seeded(options.seed);
  const runId = randomBytes(3).toString("hex");
  // The SOSs' mail leaves through an SMTP server of the run's own, which keeps what it receives.
  const smtp = await startSmtp();
  owned.add("the SMTP server", () => smtp.close());
  const stack = await startStack(owned, { processes: options.processes, env: { ...sosSettings(smtp), ...bookingSettings } });
  const census = new Census();
  const api = new Api(stack.up, census, random.fork());

  progress(`onboarding ${options.drivers} drivers through the app's calls, and ${options.passengers} passengers…`);
  const setupStarted = Date.now();
  const admin = await signInAdmin(api);
  const vehicleOf = (i: number) => (i % 2 ? "auto" : "moto");
  const driverAccounts = await inParallel(options.drivers, SETUP_WIDTH, (i) => newDriver(api, admin, i + 1, vehicleOf(i)));
  const passengerAccounts = await inParallel(options.passengers, SETUP_WIDTH, (i) => newPassenger(api, i + 1));
  await addContacts(stack);
  const booked = await bookAhead(api, Math.min(10, options.passengers), options.durationS, runId);
  const setupMs = Date.now() - setupStarted;
  // The census is the city's: onboarding is not counted.
  census.outcomes.clear();
  census.times.clear();

  const city = new City(api, options, runId, random.fork());
  const drivers = driverAccounts.map((account, i) => new Driver(city, account, vehicleOf(i), random.fork()));
  await Promise.all(drivers.map((driver) => driver.goOnline()));
  const passengers = passengerAccounts.map((account, i) => new Passenger(city, account, i + 1, random.fork()));
  // An operator's console, following the SOS alerts on whichever process is up.
  const operatorConsole = liveClient(api, admin.token, random.fork());
  const stopWatching = city.sos.watch(operatorConsole);

  const planned = plan(options.chaos, options.durationS, random.fork());
  progress(`the city runs for ${options.durationS} s, with ${planned.length} blows planned; seed ${options.seed}`);
  stack.supervise(true);
  // The actors' own timing is only as good as this process's event loop.
  const lag = monitorEventLoopDelay({ resolution: 20 });
  lag.enable();
  const startedAt = Date.now();
  const runs = [...drivers.map((driver) => city.guard(driver.run())), ...passengers.map((passenger) => city.guard(passenger.run()))];
  const blows = await unleash(stack, options.chaos, planned, random.fork(), startedAt);
  await sleep(Math.max(0, startedAt + options.durationS * 1000 - Date.now()));

  // The grace period: everything back, no new requests, what was started may finish.
  city.requestsOpen = false;
  await Promise.all(stack.services.map((service) => service.startUntilUp(60_000)));
  await stack.redis.start();
  progress(`chaos over, requests closed; up to ${options.graceS} s for the city to finish what it started…`);
  const busy = () => passengers.some((p) => !p.idle) || drivers.some((d) => d.busy) || city.sos.pending > 0;
  const graceUntil = Date.now() + options.graceS * 1000;
  while (busy() && Date.now() < graceUntil) await sleep(500);
  const unfinished = busy();
  city.halted = true;
  // Calls in flight may take up to their 35 s timeout.
  await Promise.race([Promise.all(runs), sleep(40_000)]);
  progress("waiting for the SOSs to be escalated and their mail to leave…");
  await sosSettled(stack, 90_000);
  stopWatching();
  await operatorConsole.dispose();
  stack.supervise(false);
  lag.disable();

  const stored = await storedTrips(stack);
  const sos = await sosLines(city.sos, stack, smtp, api, admin);
  const bookings = await bookingLines(stack, booked);
  const { lines, failed, slow } = judge(city, stored, census, stack, blows, [...sos, ...bookings]);
  const header = [
    `soak: ${options.processes} processes, ${options.drivers} drivers, ${options.passengers} passengers, ` +
      `${options.durationS} s of chaos then up to ${options.graceS} s of grace; seed ${options.seed}`,
    `drivers onboarded through the app's calls (register, login, profile, 6 document photos, licence, vehicle, submit, ` +
      `approval by an administrator) in ${ms(setupMs)}` +
      (unfinished ? "; the grace period ended with actors still busy" : ""),
  ];
  const text = [
    ...header,
    "",
    ...summaryTable(lines),
    "",
    ...censusTable(census),
    "",
    ...subscriptionLines(census),
    ...crashLines(stack),
    ...logLines(stack.logs),
    ...city.toolErrors.map((error) => `tool error: ${error}`),
    "",
    `the city's own event loop (its actors' timing): delay p99 ${ms(lag.percentile(99) / 1e6)}, longest ${ms(lag.max / 1e6)}`,
    loadLine(loadBefore),
    (failed.length > 0 ? `FAILED: ${failed.join("; ")}` : "PASSED") +
      (slow.length > 0 ? `; latency targets not met: ${slow.join(", ")}` : ""),
  ];
  process.stdout.write(`${text.join("\n")}\n`);
  if (city.toolErrors.length > 0) return 2;
  return failed.length > 0 ? 1 : 0;
}

const count = (records: RequestRecord[], keep: (r: RequestRecord) => boolean) => records.filter(keep).length;
const ids = (trips: StoredTrip[]) => trips.map((t) => `${t.id} (${t.estado})`).join(", ");
const first = <T>(items: T[], n = 6) => (items.length > n ? [...items.slice(0, n), "…"] : items);

/** The report's lines (the SOSs' and the reservations' last), and what failed. */
function judge(city: City, stored: StoredTrip[], census: Census, stack: Stack, blows: Blow[], sos: Line[]) {
  const { records } = city;
  const byId = new Map(stored.map((trip) => [trip.id, trip]));
  const byMarker = tripsByMarker(stored);
  const acknowledged = records.filter((r) => r.outcome === "acknowledged");
  const lost = acknowledged.filter((r) => byId.get(r.tripId!)?.marker !== r.marker);
  const stuck = stored.filter((trip) => ACTIVE_STATES.has(trip.estado));
  const duplicated = [...byMarker].filter(([, trips]) => trips.length > 1);
  const failures = census.serverFailures();
  const unacknowledgedStored = records.filter((r) => r.outcome !== "acknowledged" && byMarker.has(r.marker));
  const refusals = new Map<string, number>();
  for (const r of records) if (r.refusal) refusals.set(r.refusal, (refusals.get(r.refusal) ?? 0) + 1);

  const createCalls = census.times.get(CREATE_TRIP) ?? [];
  const createP99 = percentile(createCalls, 99);
  const accepted = acknowledged.flatMap((r) => (r.acceptedMs === undefined ? [] : [r.acceptedMs]));
  // Where the time to acceptance goes: until a driver hears of the trip, until one takes it, until its passenger knows.
  const since = (at: Map<number, number>, r: RequestRecord) => at.get(r.tripId!)! - r.acknowledgedAt!;
  const heard = acknowledged.filter((r) => city.offeredAt.has(r.tripId!)).map((r) => since(city.offeredAt, r));
  const taken = acknowledged.filter((r) => city.takenAt.has(r.tripId!));
  const slowest = (items: RequestRecord[], value: (r: RequestRecord) => number) =>
    [...items].sort((a, b) => value(b) - value(a)).slice(0, Math.max(1, Math.ceil(items.length / 100)));
  const known = taken.filter((r) => r.acceptedMs !== undefined).map((r) => r.acceptedMs! - since(city.takenAt, r));
  const acceptedP99 = percentile(accepted, 99);
  const settled = records.filter((r) => r.outcome !== "unanswered");
  const blowsOf = (kind: Blow["kind"]) => blows.filter((b) => b.kind === kind);
  const downs = (kind: Blow["kind"]) => blowsOf(kind).map((b) => b.downMs);

  const lines: Line[] = [
    {
      what: "trips acknowledged (200 with a trip id)",
      measured: String(acknowledged.length),
      note:
        `of ${records.length} requests; ${count(records, (r) => r.outcome === "no drivers")} answered no driver nearby, ` +
        `${count(records, (r) => r.outcome === "refused")} refused` +
        (refusals.size > 0 ? ` (${first([...refusals].map(([why, n]) => `${n} × ${why}`)).join("; ")})` : "") +
        `, ${count(records, (r) => r.outcome === "unanswered")} never settled within 180 s` +
        (unacknowledgedStored.length > 0 ? `; ${unacknowledgedStored.length} of those not acknowledged are in the database` : ""),
    },
    none("lost (acknowledged, not in the database)", lost.length, first(lost.map((r) => `${r.marker} → ${r.tripId}`)).join(", ")),
    none(
      "stuck (pending or active after the grace period)",
      stuck.length,
      first(stuck.map((t) => `${t.id} ${t.estado} ${t.marker}`)).join(", "),
    ),
    none(
      "duplicated (two trips for one request)",
      duplicated.length,
      first(duplicated.map(([marker, trips]) => `${marker}: ${ids(trips)}`)).join("; "),
    ),
    none(
      "5xx other than 503 (and subscriptions ended by an internal error)",
      failures.reduce((sum, f) => sum + f.count, 0),
      failures.map((f) => `${f.count} × ${f.outcome} ${f.path}`).join(", "),
    ),
    none(
      "crashes (a process exited by itself)",
      stack.crashes.length,
      stack.crashes.map((c) => `process ${c.process}: ${c.exit}`).join(", "),
    ),
    {
      what: `POST ${CREATE_TRIP} (each call)`,
      measured: percentiles(createCalls),
      target: "p99 < 1 s",
      ok: createCalls.length > 0 && createP99 < 1000,
      note: times(createCalls.length, "answered calls"),
    },
    {
      what: "create_trip, first call → settling answer",
      measured: percentiles(settled.map((r) => r.settleMs)),
      note:
        `retried: ${count(settled, (r) => r.calls > 1)} requests; more than 5 s: ${count(settled, (r) => r.settleMs > 5000)}; ` +
        `longest ${ms(Math.max(0, ...settled.map((r) => r.settleMs)))}`,
    },
    timing(census, "/conductor/update_location.php"),
    timing(census, "/viajes/accept_trip.php"),
    {
      what: "request → accepted (acknowledged until the passenger knows)",
      measured: percentiles(accepted),
      target: "p99 < 3 s",
      ok: accepted.length > 0 && acceptedP99 < 3000,
      note:
        `${accepted.length} accepted, the slowest after ${ms(Math.max(0, ...accepted))}; heard over tripUpdated: ${count(acknowledged, (r) => r.acceptedVia === "tripUpdated")}, ` +
        `learnt by reading the trip: ${count(acknowledged, (r) => r.acceptedVia === "reading the trip")}`,
    },
    { what: "… until a driver heard of it (first tripRequests offer)", measured: percentiles(heard), note: times(heard.length, "heard") },
    {
      what: "… until a driver was told it took it",
      measured: percentiles(taken.map((r) => since(city.takenAt, r))),
      note: `${times(taken.length, "taken")}; of the slowest 1 %, ${slowest(taken, (r) => since(city.takenAt, r)).filter((r) => city.acceptRetried.has(r.tripId!)).length} needed the accept sent again`,
    },
    { what: "… from then until its passenger knew", measured: percentiles(known), note: times(known.length, "known") },
    {
      what: "trips, as their passengers saw them end",
      measured: `${count(acknowledged, (r) => r.end === "completado")} completed`,
      note:
        `${count(acknowledged, (r) => r.end === "abandoned")} cancelled by the passenger after nobody took them, ` +
        `${count(acknowledged, (r) => r.end === "cancelado")} cancelled otherwise, ` +
        `${count(acknowledged, (r) => r.end === "not followed to the end")} not followed to the end`,
    },
    {
      what: "chaos",
      measured: `${blowsOf("kill").length} × kill -9, ${blowsOf("redis").length} × Redis, ${blowsOf("postgres").length} × PostgreSQL`,
      note:
        `back after: processes ${percentiles(downs("kill"))}; Redis ${percentiles(downs("redis"))}; ` +
        `PostgreSQL ${percentiles(downs("postgres"))}; process start-ups that failed: ` +
        String(stack.services.reduce((sum, s) => sum + s.startFailures, 0)),
    },
    ...sos,
  ];
  const failed = lines.filter((l) => l.ok === false && l.target === "0").map((l) => `${l.measured} ${l.what.split(" (")[0]}`);
  // The latency targets are the aim, reported beside the verdict; they do not fail the run.
  const slow = lines.filter((l) => l.ok === false && l.target !== "0").map((l) => `${l.what.split(" (")[0]} (${l.target})`);
  return { lines, failed, slow };
}

function timing(census: Census, path: string): Line {
  const values = census.times.get(path) ?? [];
  return { what: `POST ${path}`, measured: percentiles(values), note: times(values.length, "answered calls") };
}
