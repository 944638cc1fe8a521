/**
 * `npm run bench`: every scenario, each measured against its baseline in the same run, printed as
 * one table on stdout (progress on stderr) and written with the run's date, commit, machine and
 * settings to bench/results.md (bench/results.ts; BENCH_RESULTS names another file). Timings are
 * never asserted. BENCH_SECONDS sets the length of a round (5 by default; 2 for a quick look),
 * BENCH_ROUNDS their number (3); BENCH_APP_LOAD=0 skips the app-load steps (about 8 minutes with
 * the defaults). docs/performance.md says what each row measures.
 */
import { appLoadRows } from "./app-load.js";
import { fanOutRows } from "./fan-out.js";
import {
  LOCATION_TARGET,
  locationRows,
  polledReadRows,
  PREPARED_READ_TARGET,
  tripReadRows,
  tripRequestRows,
  type HttpSettings,
} from "./http.js";
import { nearestRows } from "./nearest.js";
import { withPgDatabase } from "./pg-database.js";
import { beginRun, FULL_RUN, writeResults } from "./results.js";
import { startServer, stopServer } from "./servers.js";
import { printTable, type BenchRow } from "./table.js";

const seconds = Number(process.env.BENCH_SECONDS ?? FULL_RUN.seconds);
const rounds = Number(process.env.BENCH_ROUNDS ?? FULL_RUN.rounds);
const appLoad = process.env.BENCH_APP_LOAD !== "0";
const progress = (line: string) => process.stderr.write(`${line}\n`);
// A whole round of load on each target before the measured ones: under load the server takes
// several seconds to settle (its code optimised, its heap sized); after 3 s the first round still
// ran about a third slower than the next.
const http: HttpSettings = { seconds, warmup: seconds, rounds, connections: 10, progress };

const CITY = "3,000 online drivers, 30,000 passengers and 6,000 pending requests (5,000 within 5 km of one pickup)";

/** The reads of bench/polled-reads.ts, to name their rows when they cannot run. */
const POLLED_READS = [
  "GET /viajes/get_trip.php",
  "GET /user/get_trip_status.php",
  "GET /viajes/get_active_trips.php",
  "POST /conductor/get_solicitudes_pendientes.php",
];

/** The HTTP scenarios in the table's order, with the paths they measure, to name them when they cannot run. */
const scenarios = [
  {
    title: "1. POST /conductor/update_location.php vs raw echo",
    paths: [{ path: "POST /conductor/update_location.php", target: LOCATION_TARGET }],
    rows: locationRows,
  },
  {
    title: "2. POST /viajes/create_trip.php against its target (GET /viajes/get_trip.php in alternate rounds)",
    paths: [{ path: "POST /viajes/create_trip.php (SQLite)", target: 1 }],
    rows: tripRequestRows,
  },
  {
    title: "3. GET /viajes/get_trip.php vs POST /graphql vs raw Prisma read",
    paths: [
      { path: "GET /viajes/get_trip.php", target: 0.85 },
      { path: "POST /graphql (get_trip's document)", target: 0.7 },
    ],
    rows: tripReadRows,
  },
  {
    title: "3b. the reads the apps repeat vs the same rows read with prepared statements (SQLite)",
    paths: POLLED_READS.map((path) => ({ path: `${path} (vs prepared SQLite)`, target: PREPARED_READ_TARGET.SQLite })),
    rows: polledReadRows,
  },
];
// Trip requests run last: the trips they create stay pending and go out to further waves of
// drivers every DISPATCH_WAVE_S for about a minute, which would weigh on any scenario after them.
const RUN_ORDER = [0, 2, 3, 1];

/** A row that says why it has no figures; the run then exits with a failure, after the table. */
function unmeasured({ path, target }: { path: string; target: number }, why: string): BenchRow {
  process.exitCode = 1;
  return { path, measured: "not measured", baseline: "—", ratio: 0, target, note: `INVALID: ${why}` };
}
const reason = (error: unknown) => (error instanceof Error ? error.message : String(error)).split("\n")[0]!;

const run = beginRun({ seconds, rounds, appLoad });
const httpRows = scenarios.map((): BenchRow[] => []);

progress(`seeding ${CITY}, starting the server…`);
const { child, ready } = startServer();
process.once("SIGINT", () => {
  child.kill("SIGKILL");
  process.exit(130);
});
try {
  const server = await ready.catch((error: unknown) => {
    progress(`the HTTP scenarios cannot run: ${reason(error)}`);
    for (const [i, scenario] of scenarios.entries())
      httpRows[i] = scenario.paths.map((row) => unmeasured(row, `${reason(error)} (see stderr)`));
    return null;
  });
  for (const i of server ? RUN_ORDER : []) {
    const scenario = scenarios[i]!;
    progress(scenario.title);
    try {
      httpRows[i] = await scenario.rows(server!, http);
    } catch (error) {
      progress(`  failed: ${reason(error)}`);
      httpRows[i] = scenario.paths.map((row) => unmeasured(row, reason(error)));
    }
  }
} finally {
  await stopServer(child);
}
const rows = httpRows.flat();

// The reads and the trip requests on PostgreSQL, on a server of their own seeded alike.
progress(`2b. the reads and POST /viajes/create_trip.php on PostgreSQL; seeding ${CITY}…`);
rows.push(
  ...(await withPgDatabase("bench_trips", async (url) => {
    const { child: pgChild, ready: pgReady } = startServer({ BENCH_DATABASE_URL: url });
    try {
      const server = await pgReady;
      return [...(await polledReadRows(server, http)), ...(await tripRequestRows(server, http))];
    } finally {
      await stopServer(pgChild);
    }
  }).catch((error: unknown) => {
    progress(`  failed: ${reason(error)}`);
    return [
      ...POLLED_READS.map((path) =>
        unmeasured({ path: `${path} (vs prepared PostgreSQL)`, target: PREPARED_READ_TARGET.PostgreSQL }, reason(error)),
      ),
      unmeasured({ path: "POST /viajes/create_trip.php (PostgreSQL)", target: 1 }, reason(error)),
    ];
  })),
);

// In-process scenarios after the server is gone, so that nothing else competes for the cores.
progress("4. nearest eligible drivers: geo index vs linear scan");
try {
  rows.push(...nearestRows({ roundMs: seconds * 100, rounds, progress }));
} catch (error) {
  progress(`  failed: ${reason(error)}`);
  rows.push(unmeasured({ path: "nearest 10 eligible drivers (in-process)", target: 100 }, reason(error)));
}
progress("5. fan-out");
// A failure here still leaves the table of everything else.
rows.push(
  ...(await fanOutRows().catch((error: unknown) => {
    progress(`  failed: ${reason(error)}`);
    return [unmeasured({ path: "graphql-ws fan-out, 10,000 subscribers of one trip", target: 0.5 }, reason(error))];
  })),
);

// Last, on servers of their own, seeded for it (more drivers, trips waiting for one).
if (appLoad) {
  progress("6. app load: simulated app users in steps, SQLite, PostgreSQL, PostgreSQL + Redis × 3");
  try {
    rows.push(...(await appLoadRows(http)));
  } catch (error) {
    progress(`  failed: ${reason(error)}`);
    rows.push(unmeasured({ path: "app users per process (SQLite, 1 process)", target: 1 }, reason(error)));
  }
}

process.stdout.write(`${printTable(rows, run.loadBefore)}\n`);
progress(`written to ${writeResults(rows, run)}`);
