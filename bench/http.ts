/**
 * The HTTP scenarios: autocannon against the server child (bench/server-process.ts), each path
 * against its baseline in alternating rounds, medians of the rounds in the table.
 */
import { createRequire } from "node:module";
import { print } from "graphql";
import { tripRoutes } from "../src/rest/routes/trips/index.js";
import { polledReads, type Target } from "./polled-reads.js";
import { CITY_CENTRE, pointWithin, QUEUE_KM } from "./seed.js";
import type { ServerReady } from "./server-process.js";
import type { BenchRow } from "./table.js";

// autocannon ships no types; this is the part of its API used here.
interface CannonRequest {
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  body?: string;
  setupRequest?: (request: CannonRequest) => CannonRequest;
  onResponse?: (status: number, body: string) => void;
}
interface CannonResult {
  duration: number;
  errors: number;
  timeouts: number;
  statusCodeStats: Record<string, { count: number }>;
  latency: { p99: number };
  requests: { total: number };
}
const autocannon = createRequire(import.meta.url)("autocannon") as (options: {
  url: string;
  connections: number;
  duration: number;
  requests: CannonRequest[];
}) => Promise<CannonResult>;

export interface HttpSettings {
  /** Seconds of each measured round. */
  seconds: number;
  /** Seconds of load on each target before the rounds. */
  warmup: number;
  rounds: number;
  connections: number;
  progress: (line: string) => void;
}

interface Measured {
  /** Medians of the rounds. */
  rps: number;
  p99: number;
  rounds: Array<{ rps: number; p99: number }>;
  /** Answers that were not a 2xx success, by status ("200 refused" for a 200 with a failure body), and socket errors. */
  failures: Map<string, number>;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};
const count = (failures: Map<string, number>, what: string, n = 1) => failures.set(what, (failures.get(what) ?? 0) + n);

async function hit(
  target: Target,
  seconds: number,
  connections: number,
  failures: Map<string, number>,
): Promise<{ rps: number; p99: number }> {
  const { body, ok } = target;
  const result = await autocannon({
    url: `http://127.0.0.1:${target.port}`,
    connections,
    duration: seconds,
    requests: [
      {
        method: target.method,
        path: target.path,
        headers: target.headers ?? {},
        ...(typeof body === "string" && { body }),
        ...(typeof body === "function" && { setupRequest: (request: CannonRequest) => ({ ...request, body: body() }) }),
        onResponse: (status, text) => {
          if (status >= 200 && status < 300 && !ok(text)) count(failures, `${status} refused`);
        },
      },
    ],
  });
  for (const [status, { count: n }] of Object.entries(result.statusCodeStats)) if (!status.startsWith("2")) count(failures, status, n);
  if (result.errors > 0) count(failures, "socket errors", result.errors);
  return { rps: result.requests.total / result.duration, p99: result.latency.p99 };
}

/**
 * Waits until the server has worked off what a round left in flight (a slow request can outlive
 * autocannon's round and would be charged to the next target): until /readyz, which queues on the
 * database behind it, answers quickly again.
 */
async function settle(appPort: number): Promise<void> {
  const until = Date.now() + 10_000;
  for (;;) {
    const start = Date.now();
    await fetch(`http://127.0.0.1:${appPort}/readyz`).then((response) => response.arrayBuffer());
    if (Date.now() - start < 20 || Date.now() > until) break;
  }
  await new Promise((resolve) => setTimeout(resolve, 200));
}

/** Warms each target up, then runs rounds A, B, (C,) A, B… so that the machine's noise falls on all alike. */
async function alternate(appPort: number, targets: Target[], settings: HttpSettings): Promise<Measured[]> {
  const failures = targets.map(() => new Map<string, number>());
  const rounds = targets.map(() => [] as Array<{ rps: number; p99: number }>);
  for (const [i, target] of targets.entries()) {
    settings.progress(`  warm-up ${target.label}`);
    await hit(target, settings.warmup, settings.connections, failures[i]!);
    await settle(appPort);
  }
  for (let round = 1; round <= settings.rounds; round++) {
    for (const [i, target] of targets.entries()) {
      const measured = await hit(target, settings.seconds, settings.connections, failures[i]!);
      await settle(appPort);
      rounds[i]!.push(measured);
      settings.progress(`  round ${round}/${settings.rounds} ${target.label}: ${rate(measured.rps)}, p99 ${ms(measured.p99)}`);
    }
  }
  return targets.map((_, i) => ({
    rps: median(rounds[i]!.map((r) => r.rps)),
    p99: median(rounds[i]!.map((r) => r.p99)),
    rounds: rounds[i]!,
    failures: failures[i]!,
  }));
}

const rate = (rps: number) => `${Math.round(rps).toLocaleString("en-US")} req/s`;
const ms = (value: number) => `${value < 10 ? value.toFixed(1) : Math.round(value)} ms`;
const figures = (m: Measured) => `${rate(m.rps)}, p99 ${ms(m.p99)}`;

/** Failed answers make a row no measurement: said in its note. */
function validity(...measured: Measured[]): string[] {
  const failures = new Map<string, number>();
  for (const m of measured) for (const [what, n] of m.failures) count(failures, what, n);
  if (failures.size === 0) return [];
  return [`INVALID, failed answers: ${[...failures].map(([what, n]) => `${n} × ${what}`).join(", ")}`];
}

function row(path: string, measured: Measured, baselineLabel: string, baseline: Measured, target: number, notes: string[] = []): BenchRow {
  const note = [...notes, ...validity(measured, baseline)].join("; ");
  return {
    path,
    measured: figures(measured),
    baseline: `${baselineLabel}: ${figures(baseline)}`,
    // Each round against the baseline's round beside it, so that a slower spell of the machine cancels out.
    ratio: median(measured.rounds.map((round, i) => round.rps / baseline.rounds[i]!.rps)),
    target,
    ...(note && { note }),
  };
}

const JSON_HEADERS = { "content-type": "application/json" };
const legacySuccess = (body: string) => body.includes('"success":true');
const jitter = (degrees: number) => (Math.random() - 0.5) * degrees;

/** The least a ping may run at against a raw echo of the same body. */
export const LOCATION_TARGET = 0.5;

/** 1. A ping by an online driver, against a raw node:http echo of a body of the same size. */
export async function locationRows(server: ServerReady, settings: HttpSettings): Promise<BenchRow[]> {
  const { drivers } = server.city;
  let next = 0;
  // Each request from the next of the seeded drivers, a few tens of metres from where they were seeded.
  const ping = () => {
    const driver = drivers[next++ % drivers.length]!;
    return JSON.stringify({
      conductor_id: driver.conductor_id,
      latitud: driver.latitud + jitter(0.001),
      longitud: driver.longitud + jitter(0.001),
    });
  };
  const [location, echo] = await alternate(
    server.ports.app,
    [
      {
        label: "update_location.php",
        port: server.ports.app,
        method: "POST",
        path: "/conductor/update_location.php",
        headers: JSON_HEADERS,
        body: ping,
        ok: legacySuccess,
      },
      { label: "raw echo", port: server.ports.echo, method: "POST", path: "/", headers: JSON_HEADERS, body: ping, ok: () => true },
    ],
    settings,
  );
  return [
    row("POST /conductor/update_location.php", location!, "raw node:http JSON echo, same body", echo!, LOCATION_TARGET, [
      `${drivers.length.toLocaleString("en-US")} drivers online`,
    ]),
  ];
}

/** What a process must carry in trip requests with 3,000 drivers online: trips per second, and p99 by database. */
const TRIP_REQUESTS_PER_S = 150;
const TRIP_REQUEST_P99_MS = { SQLite: 250, PostgreSQL: 150 } as const;
/** How far the last round may fall behind the first as requests pile up. */
const MOST_SLOWDOWN = 0.1;

const databaseOf = (server: ServerReady) => (server.databaseUrl.startsWith("file:") ? "SQLite" : "PostgreSQL");

/**
 * 2. Trip requests at the busy pickup, where thousands wait already, against their target; with a
 * read of the accepted trip on the same server in alternate rounds to show how fast the machine
 * ran meanwhile. Each request adds to the queue: its last round must keep up with its first.
 */
export async function tripRequestRows(server: ServerReady, settings: HttpSettings): Promise<BenchRow[]> {
  const { passengerIds, drivers, pendingTripIds } = server.city;
  const database = databaseOf(server);
  let next = 0;
  // A passenger of their own per request (one active trip each), picked up within a kilometre of
  // the busy pickup, going 1 to 4 km.
  const request = () => {
    const origen = pointWithin(CITY_CENTRE, 1);
    const away = () => (0.01 + Math.random() * 0.03) * (Math.random() < 0.5 ? -1 : 1);
    const destino = { latitud: origen.latitud + away(), longitud: origen.longitud + away() };
    return JSON.stringify({
      usuario_id: passengerIds[next % passengerIds.length],
      tipo_servicio: next++ % 2 ? "motocicleta" : "auto",
      origen: { ...origen, direccion: "Calle 10 # 43-12, El Poblado" },
      destino: { ...destino, direccion: "Carrera 70 # 44-20, Laureles" },
    });
  };
  const [read] = await polledReads(server);
  const [create, reading] = await alternate(
    server.ports.app,
    [
      {
        label: "create_trip.php",
        port: server.ports.app,
        method: "POST",
        path: "/viajes/create_trip.php",
        headers: JSON_HEADERS,
        body: request,
        ok: legacySuccess,
      },
      read!.service,
    ],
    settings,
  );
  const p99Target = TRIP_REQUEST_P99_MS[database];
  const first = create!.rounds[0]!.rps;
  const last = create!.rounds.at(-1)!.rps;
  const notes = [
    `${drivers.length.toLocaleString("en-US")} drivers online, ${settings.connections} connections`,
    `${pendingTripIds.length.toLocaleString("en-US")} requests pending at the start, most within ${QUEUE_KM} km of the pickup`,
    `rounds ${create!.rounds.map((r) => Math.round(r.rps)).join(", ")} trips/s (the last must be within ${MOST_SLOWDOWN * 100}% of the first)`,
    `p99 ${ms(create!.p99)} (target < ${p99Target} ms)`,
    `get_trip.php in alternate rounds: ${figures(reading!)}`,
  ];
  if (next > passengerIds.length) notes.push(`passengers reused: ${next} requests for ${passengerIds.length} passengers`);
  const note = [...notes, ...validity(create!, reading!)].join("; ");
  return [
    {
      path: `POST /viajes/create_trip.php (${database})`,
      measured: figures(create!),
      baseline: `target ${TRIP_REQUESTS_PER_S} trips/s, p99 < ${p99Target} ms`,
      ratio: create!.rps / TRIP_REQUESTS_PER_S,
      target: 1,
      holds: create!.p99 < p99Target && last >= (1 - MOST_SLOWDOWN) * first,
      note,
    },
  ];
}

/**
 * 3. get_trip.php against the same GraphQL document over /graphql, both as the trip's passenger,
 * and that against the bare Prisma read.
 */
export async function tripReadRows(server: ServerReady, settings: HttpSettings): Promise<BenchRow[]> {
  const { tripId } = server.city;
  const [read] = await polledReads(server);
  const route = tripRoutes.find((r) => r.path === "/viajes/get_trip.php")!;
  const document = JSON.stringify({ query: print(route.document.document), variables: { trip_id: tripId } });
  const [legacy, graphql, raw] = await alternate(
    server.ports.app,
    [
      read!.service,
      {
        label: "GraphQL",
        port: server.ports.app,
        method: "POST",
        path: "/graphql",
        headers: { ...JSON_HEADERS, ...read!.service.headers },
        body: document,
        ok: (body) => body.includes('"placa"') && !body.includes('"errors"'),
      },
      {
        label: "raw Prisma read",
        port: server.ports.read,
        method: "GET",
        path: `/trip?trip_id=${tripId}`,
        ok: (body) => body.includes('"placa"'),
      },
    ],
    settings,
  );
  return [
    row("GET /viajes/get_trip.php", legacy!, "POST /graphql, same document, same Bearer token", graphql!, 0.85, [
      "as the trip's passenger",
    ]),
    row("POST /graphql (get_trip's document)", graphql!, "raw node:http + the same Prisma read", raw!, 0.7, [
      "GraphQL also looks the session token up",
    ]),
  ];
}

/** The least the reads the apps repeat may run at against their rows read with prepared statements, by database. */
export const PREPARED_READ_TARGET = { SQLite: 0.3, PostgreSQL: 0.5 } as const;

/** 4. The reads the apps repeat (bench/polled-reads.ts), each against its rows read with prepared statements. */
export async function polledReadRows(server: ServerReady, settings: HttpSettings): Promise<BenchRow[]> {
  const database = databaseOf(server);
  const driver = database === "SQLite" ? "better-sqlite3" : "named pg";
  const rows: BenchRow[] = [];
  for (const read of await polledReads(server)) {
    settings.progress(`  ${read.path}`);
    const [service, baseline] = await alternate(server.ports.app, [read.service, read.baseline], settings);
    rows.push(
      row(
        `${read.path} (vs prepared ${database})`,
        service!,
        `raw node:http + ${driver} prepared statements`,
        baseline!,
        PREPARED_READ_TARGET[database],
        ["signed in with a Bearer token; the same rows, checked in every answer"],
      ),
    );
  }
  return rows;
}
