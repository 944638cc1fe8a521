/**
 * The HTTP scenarios: autocannon against the server child (bench/server-process.ts), each path
 * against its baseline in alternating rounds, medians of the rounds in the table.
 */
import { createRequire } from "node:module";
import { print } from "graphql";
import { tripRoutes } from "../src/rest/routes/trips/index.js";
import { pointInCity } from "./seed.js";
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

interface Target {
  label: string;
  port: number;
  method: "GET" | "POST";
  path: string;
  headers?: Record<string, string>;
  /** The body, or a function giving a fresh one for every request, so that bodies vary as the apps' do. */
  body?: string | (() => string);
  /** Whether an answer's body is a success: legacy calls can fail with 200 and success false. */
  ok: (body: string) => boolean;
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
    row("POST /conductor/update_location.php", location!, "raw node:http JSON echo, same body", echo!, 0.25, [
      `${drivers.length.toLocaleString("en-US")} drivers online`,
    ]),
  ];
}

/** What a process must carry in trip requests with 3,000 drivers online: trips per second, and p99 by database. */
const TRIP_REQUESTS_PER_S = 150;
const TRIP_REQUEST_P99_MS = { sqlite: 250, postgresql: 150 } as const;

/**
 * 2. Trip requests among the online drivers, against their target, with a read of a trip on the
 * same server in alternate rounds to show how fast the machine ran meanwhile.
 */
export async function tripRequestRows(server: ServerReady, settings: HttpSettings): Promise<BenchRow[]> {
  const { passengerIds, drivers, tripId } = server.city;
  const database = server.databaseUrl.startsWith("file:") ? "sqlite" : "postgresql";
  let next = 0;
  // A passenger of their own per request (one active trip each), picked up at least 5 km inside
  // the drivers' square, going 1 to 4 km.
  const request = () => {
    const origen = pointInCity(0.27);
    const away = () => (0.01 + Math.random() * 0.03) * (Math.random() < 0.5 ? -1 : 1);
    const destino = { latitud: origen.latitud + away(), longitud: origen.longitud + away() };
    return JSON.stringify({
      usuario_id: passengerIds[next % passengerIds.length],
      tipo_servicio: next++ % 2 ? "motocicleta" : "auto",
      origen: { ...origen, direccion: "Calle 10 # 43-12, El Poblado" },
      destino: { ...destino, direccion: "Carrera 70 # 44-20, Laureles" },
    });
  };
  const [create, read] = await alternate(
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
      { label: "get_trip.php", port: server.ports.app, method: "GET", path: `/viajes/get_trip.php?trip_id=${tripId}`, ok: legacySuccess },
    ],
    settings,
  );
  const p99Target = TRIP_REQUEST_P99_MS[database];
  const notes = [
    `${drivers.length.toLocaleString("en-US")} drivers online, ${settings.connections} connections`,
    `p99 ${ms(create!.p99)} (target < ${p99Target} ms)`,
    `get_trip.php in alternate rounds: ${figures(read!)}`,
  ];
  if (next > passengerIds.length) notes.push(`passengers reused: ${next} requests for ${passengerIds.length} passengers`);
  const note = [...notes, ...validity(create!, read!)].join("; ");
  return [
    {
      path: `POST /viajes/create_trip.php (${database === "sqlite" ? "SQLite" : "PostgreSQL"})`,
      measured: figures(create!),
      baseline: `target ${TRIP_REQUESTS_PER_S} trips/s, p99 < ${p99Target} ms`,
      ratio: create!.rps / TRIP_REQUESTS_PER_S,
      target: 1,
      holds: create!.p99 < p99Target,
      note,
    },
  ];
}

/**
 * 3. get_trip.php against the same GraphQL document over /graphql, that against the bare Prisma
 * read, and get_trip.php against the same rows read with prepared better-sqlite3 statements.
 */
export async function tripReadRows(server: ServerReady, settings: HttpSettings): Promise<BenchRow[]> {
  const { tripId } = server.city;
  const route = tripRoutes.find((r) => r.path === "/viajes/get_trip.php")!;
  const document = JSON.stringify({ query: print(route.document.document), variables: { trip_id: tripId } });
  const [legacy, graphql, raw, prepared] = await alternate(
    server.ports.app,
    [
      { label: "get_trip.php", port: server.ports.app, method: "GET", path: `/viajes/get_trip.php?trip_id=${tripId}`, ok: legacySuccess },
      {
        label: "GraphQL",
        port: server.ports.app,
        method: "POST",
        path: "/graphql",
        headers: { ...JSON_HEADERS, authorization: `Bearer ${server.token}` },
        body: document,
        ok: (body) => body.includes('"estado"') && !body.includes('"errors"'),
      },
      {
        label: "raw Prisma read",
        port: server.ports.read,
        method: "GET",
        path: `/trip?trip_id=${tripId}`,
        ok: (body) => body.includes('"estado"'),
      },
      preparedRead(server, "prepared SQLite read"),
    ],
    settings,
  );
  return [
    row("GET /viajes/get_trip.php", legacy!, "POST /graphql, same document, Bearer token", graphql!, 0.85),
    row("POST /graphql (get_trip's document)", graphql!, "raw node:http + the same Prisma read", raw!, 0.7, [
      "GraphQL also looks the session token up",
    ]),
    row(
      "GET /viajes/get_trip.php (vs prepared SQLite)",
      legacy!,
      "raw node:http + 4 prepared better-sqlite3 statements",
      prepared!,
      PREPARED_READ_TARGET,
      ["same rows: trip, driver, profile, vehicle"],
    ),
  ];
}

/** The least get_trip.php may run at against the same rows read with prepared statements. */
export const PREPARED_READ_TARGET = 0.2;

/** The baseline of the same rows read with statements prepared once (better-sqlite3 or pg, by the server's database). */
const preparedRead = (server: ServerReady, label: string): Target => ({
  label,
  port: server.ports.prepared,
  method: "GET",
  path: `/trip?trip_id=${server.city.tripId}`,
  ok: (body) => body.includes('"estado"'),
});

/** get_trip.php on a server process against the same rows read with prepared statements beside it, over `label`. */
export async function preparedReadRow(server: ServerReady, settings: HttpSettings, path: string, label: string): Promise<BenchRow> {
  const { tripId } = server.city;
  const [legacy, prepared] = await alternate(
    server.ports.app,
    [
      { label: "get_trip.php", port: server.ports.app, method: "GET", path: `/viajes/get_trip.php?trip_id=${tripId}`, ok: legacySuccess },
      preparedRead(server, label),
    ],
    settings,
  );
  return row(path, legacy!, label, prepared!, PREPARED_READ_TARGET, ["same rows: trip, driver, profile, vehicle"]);
}
