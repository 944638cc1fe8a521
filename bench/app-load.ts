/**
 * The app-load bench: simulated users of pingo's app (bench/app-users.ts) against server processes,
 * in steps of more users until p99 passes 100 ms or an answer fails. Each user is an open-loop
 * timer: its requests go out on schedule whatever the answers, and latency counts from the
 * scheduled time, so a server that falls behind is charged for the wait (no coordinated
 * omission). The generator runs in the bench's own process, apart from the servers.
 */
import type { ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { Agent, request } from "node:http";
import { performance } from "node:perf_hooks";
import { createClient } from "graphql-ws";
import WebSocket from "ws";
import {
  type AppRequest,
  DEPLOYED_APP,
  MIX,
  NEXT_APP,
  type Profile,
  rateOf,
  type SeededSessions,
  type Watch,
  usersOf,
} from "./app-users.js";
import type { HttpSettings } from "./http.js";
import type { SeededCity } from "./seed.js";
import { openDatabase } from "./built.js";
import { withPgDatabase } from "./pg-database.js";
import type { ServerReady } from "./server-process.js";
import { cpuSeconds, startServer, stopServer } from "./servers.js";
import type { BenchRow } from "./table.js";

const P99_LIMIT_MS = 100;
/** The first step, doubled until one fails, then halved back twice. */
const FIRST_STEP = 500;
const BISECTIONS = 2;
const MAX_USERS = 40_000;
/**
 * At least long enough for every user to have sent each of their requests once (the drivers' poll,
 * every 5 s, starts half a period late): what only a user's first request costs (a driver's first
 * look at the requests around them is written down) is not measured. Then on until the server has
 * worked off what those first requests left queued (the warm-up answers of the last second back
 * within P99_LIMIT_MS), for at most SETTLE_MS more: a step's users all arrive at once, where a
 * city's phones come online over minutes. A server that cannot keep up is measured all the same.
 */
const WARMUP_MS = 8000;
const SETTLE_MS = 30_000;
const TIMEOUT_MS = 10_000;
const IDLE_MS = 2000;
/** Sockets per server process, as a phone-facing proxy would keep. */
const SOCKETS = 64;
const SEED = {
  drivers: MAX_USERS * MIX.driver,
  // The waiting ones (at the end, a pending trip each) and the searching ones (from the start).
  passengers: MAX_USERS * (MIX.waiting + MIX.searching) + 1,
  pendingTrips: MAX_USERS * MIX.waiting,
};
/** A step's subscriptions are opened over this long from its start, as its users' requests are spread over their periods. */
const OPEN_SPREAD_MS = 5000;
const REDIS_URL = process.env.BENCH_REDIS_URL ?? "redis://127.0.0.1:6379";

interface Step {
  users: number;
  p50: number;
  p99: number;
  /** p99 of each path, to say which one holds the others up. */
  p99s: Map<string, number>;
  /** Requests a second of each path over the step. */
  rates: Map<string, number>;
  /** Failed answers by path and what failed, with the first body of each. */
  failures: Map<string, { count: number; example: string }>;
  /** Server CPU seconds per wall second, all processes together. */
  cpu: number;
  /** How late the generator sent at worst (its own event loop's delay, charged to the latencies too). */
  lateMs: number;
  /** How long the warm-up took (see WARMUP_MS). */
  warmupMs: number;
  /** Subscriptions the step's users held open (the profile's watches), all acknowledged or the step failed. */
  watching: number;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? 0;
const fmt = (n: number) => Math.round(n).toLocaleString("en-US");
const ms = (value: number) => `${value < 10 ? value.toFixed(1) : Math.round(value)} ms`;
const shortName = (label: string) => label.split("/").at(-1)!;
const passed = (step: Step) => step.p99 < P99_LIMIT_MS && step.failures.size === 0;

/** One request; resolves with a failure ("status: body") or null, never rejects. */
function send(agent: Agent, port: number, req: AppRequest): Promise<string | null> {
  return new Promise((resolve) => {
    const outgoing = request(
      { agent, host: "127.0.0.1", port, method: req.method, path: req.path, headers: req.headers, timeout: TIMEOUT_MS },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => {
          const body = Buffer.concat(chunks).toString("utf8");
          const ok = res.statusCode! >= 200 && res.statusCode! < 300 && body.includes('"success":true');
          resolve(ok ? null : `${res.statusCode}: ${body.slice(0, 200)}`);
        });
        res.on("error", (error) => resolve(`socket: ${error.message}`));
      },
    );
    outgoing.on("timeout", () => outgoing.destroy(new Error(`no answer within ${TIMEOUT_MS} ms`)));
    outgoing.on("error", (error) => resolve(`socket: ${error.message}`));
    outgoing.end(req.body);
  });
}

/**
 * One user's subscription, opened now on the server of their connection: `failed` hears of any
 * error it ends with, `acknowledged` of its connection being accepted. Answers how to close it.
 */
export function watchOn(
  port: number,
  { query, variables, token }: ReturnType<Watch["subscription"]>,
  failed: (what: string) => void,
  acknowledged: () => void,
): () => Promise<void> {
  const client = createClient({
    url: `ws://127.0.0.1:${port}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: { authorization: `Bearer ${token}` },
    retryAttempts: 0,
    // A connection never acknowledged fails the step, rather than holding it (and its closing) up.
    connectionAckWaitTimeout: TIMEOUT_MS,
    on: { connected: acknowledged },
  });
  const unsubscribe = client.subscribe(
    { query, variables },
    {
      next: (result) => {
        if (result.errors) failed(`errors: ${JSON.stringify(result.errors).slice(0, 200)}`);
      },
      error: (error) => {
        const closed = error as { code?: number; reason?: string };
        failed(error instanceof Error ? `error: ${error.message}` : `closed: ${closed.code} ${closed.reason ?? ""}`);
      },
      // Neither subscription ends while its user is still one: a driver's requests, a pending trip.
      complete: () => failed("completed: the subscription ended"),
    },
  );
  return async () => {
    unsubscribe();
    // A connection that failed has been reported already; closing it has nothing left to do.
    await Promise.resolve(client.dispose()).catch(() => undefined);
  };
}

/** CPU seconds of all the server processes so far. */
const serversCpu = async (servers: Array<{ child: ChildProcess }>) =>
  (await Promise.all(servers.map(({ child }) => cpuSeconds(child)))).reduce((a, b) => a + b, 0);

/**
 * `users` users of `profile` for a warm-up and `holdMs`, each user on one of the servers (users
 * spread over them in turn), their subscriptions opened over the first OPEN_SPREAD_MS.
 */
async function runStep(
  servers: Array<{ port: number; child: ChildProcess }>,
  { city, sessions }: { city: SeededCity; sessions: SeededSessions },
  profile: Profile,
  users: number,
  holdMs: number,
): Promise<Step> {
  const agents = servers.map(() => new Agent({ keepAlive: true, maxSockets: SOCKETS }));
  // Each stream's requests evenly spaced: the jth goes to user j mod n, so each user sends once a period.
  const streams = profile.streams.map((stream) => ({ stream, n: usersOf(users, stream.kind), next: 0 })).filter((s) => s.n > 0);
  const watches = profile.watches.map((watch) => ({ watch, n: usersOf(users, watch.kind), next: 0 })).filter((w) => w.n > 0);
  // In the streams' order, for the table.
  const latencies = new Map(streams.map((s) => [s.stream.label, [] as number[]]));
  const failures: Step["failures"] = new Map();
  const fail = (label: string, failure: string) => {
    const key = `${label} ${failure.split(":")[0]}`;
    const known = failures.get(key);
    failures.set(key, { count: (known?.count ?? 0) + 1, example: known?.example ?? failure });
  };
  const closers: Array<() => Promise<void>> = [];
  let acknowledged = 0;
  let closing = false;
  const inFlight = new Set<Promise<void>>();
  const start = performance.now();
  let measureFrom = Number.POSITIVE_INFINITY;
  let end = Number.POSITIVE_INFINITY;
  let cpuBefore = 0;
  let lateMs = 0;
  /** Warm-up answers: when each came back, and its latency. */
  const warmup: Array<{ at: number; latency: number }> = [];
  let checked = 0;
  const caughtUp = (now: number) => {
    // Ten times a second is often enough, and leaves the generator's ticks short.
    if (now - checked < 100) return false;
    checked = now;
    while (warmup.length > 0 && warmup[0]!.at < now - 1000) warmup.shift();
    return (
      warmup.length > 0 &&
      percentile(
        warmup.map((a) => a.latency).sort((a, b) => a - b),
        99,
      ) < P99_LIMIT_MS
    );
  };

  await new Promise<void>((resolve) => {
    const tick = () => {
      const now = performance.now();
      if (measureFrom === Number.POSITIVE_INFINITY && now >= start + WARMUP_MS && (caughtUp(now) || now >= start + WARMUP_MS + SETTLE_MS)) {
        measureFrom = now;
        end = now + holdMs;
        void serversCpu(servers).then((cpu) => (cpuBefore = cpu));
      }
      for (const w of watches) {
        while (w.next < w.n && start + (w.next * OPEN_SPREAD_MS) / w.n <= now) {
          const user = w.next++;
          const port = servers[user % servers.length]!.port;
          const failed = (what: string) => closing || fail(w.watch.label, what);
          closers.push(watchOn(port, w.watch.subscription(user, city, sessions), failed, () => acknowledged++));
        }
      }
      for (const s of streams) {
        for (;;) {
          const at = start + s.stream.phase * s.stream.periodMs + (s.next * s.stream.periodMs) / s.n;
          if (at > now || at >= end) break;
          const user = s.next++ % s.n;
          if (at >= measureFrom) lateMs = Math.max(lateMs, now - at);
          // A phone keeps its connection, and so its process, for the whole session.
          const target = user % servers.length;
          const sending = send(agents[target]!, servers[target]!.port, s.stream.request(user, city, sessions)).then((failure) => {
            if (at < measureFrom) return void warmup.push({ at: performance.now(), latency: performance.now() - at });
            latencies.get(s.stream.label)!.push(performance.now() - at);
            if (failure) fail(s.stream.label, failure);
          });
          inFlight.add(sending);
          void sending.then(() => inFlight.delete(sending));
        }
      }
      if (now >= end) {
        clearInterval(timer);
        resolve();
      }
    };
    const timer = setInterval(tick, 1);
  });
  const cpu = (await serversCpu(servers)) - cpuBefore;
  await Promise.all(inFlight);
  for (const agent of agents) agent.destroy();
  if (acknowledged < closers.length)
    fail("subscriptions", `not connected: ${closers.length - acknowledged} of ${closers.length} never acknowledged`);
  closing = true;
  await Promise.all(closers.map((close) => close()));
  const sorted = (values: number[]) => values.sort((a, b) => a - b);
  const all = sorted([...latencies.values()].flat());
  return {
    users,
    p50: percentile(all, 50),
    p99: percentile(all, 99),
    p99s: new Map([...latencies].map(([label, values]) => [label, percentile(sorted(values), 99)])),
    rates: new Map([...latencies].map(([label, values]) => [label, values.length / (holdMs / 1000)])),
    failures,
    cpu: cpu / (holdMs / 1000),
    lateMs,
    warmupMs: measureFrom - start,
    watching: closers.length,
  };
}

/**
 * As many trips pending as there are passengers waiting in the step, the others cancelled: drivers'
 * polls list the pending ones near them, and more than the step's users would have would weigh on them.
 */
async function pendingTrips(databaseUrl: string, city: SeededCity, count: number): Promise<void> {
  const { prisma, close } = await openDatabase(databaseUrl);
  // The seeded ids ascend, and no other trip is created meanwhile: ranges, not lists beyond SQLite's limit of variables.
  const ids = city.pendingTripIds;
  const split = ids[count] ?? ids.at(-1)! + 1;
  await prisma.trip.updateMany({ where: { id: { gte: ids[0], lt: split } }, data: { estado: "pendiente" } });
  await prisma.trip.updateMany({ where: { id: { gte: split, lte: ids.at(-1) } }, data: { estado: "cancelado" } });
  await close();
}

/** Steps from FIRST_STEP, doubling while they pass, then halving the gap between the last that passed and the first that did not. */
async function ramp(
  servers: Array<{ port: number; child: ChildProcess }>,
  ready: ServerReady,
  profile: Profile,
  settings: HttpSettings,
  name: string,
) {
  const { city } = ready;
  const steps: Step[] = [];
  // What the processes spend with no request (dispatch polls, position flushes, Redis messages), which weighs at low steps.
  const idleFrom = await serversCpu(servers);
  await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
  const idle = ((await serversCpu(servers)) - idleFrom) / (IDLE_MS / 1000);
  const run = async (users: number) => {
    await pendingTrips(ready.databaseUrl, city, usersOf(users, "waiting"));
    const step = await runStep(servers, ready, profile, users, settings.seconds * 2000);
    const failed = [...step.failures].map(([what, { count }]) => `${count} × ${what}`).join(", ");
    settings.progress(
      `  ${name}: ${fmt(users)} users, ${fmt(rateOf(profile, users))} req/s asked${step.watching ? ` and ${fmt(step.watching)} subscriptions` : ""}: p50 ${ms(step.p50)}, p99 ${ms(step.p99)}, server CPU ${step.cpu.toFixed(2)} s/s, sends ≤ ${ms(step.lateMs)} late, warm-up ${(step.warmupMs / 1000).toFixed(1)} s${failed ? `, FAILED ${failed}` : ""}`,
    );
    if (!passed(step))
      settings.progress(`    p99 by path: ${[...step.p99s].map(([label, p99]) => `${shortName(label)} ${ms(p99)}`).join(", ")}`);
    for (const [what, { example }] of step.failures) settings.progress(`    ${what}, e.g. ${example}`);
    steps.push(step);
    return passed(step);
  };
  let users = FIRST_STEP;
  while (users <= MAX_USERS && (await run(users))) users *= 2;
  let low = steps.filter(passed).at(-1)?.users ?? 0;
  let high = users;
  for (let i = 0; i < BISECTIONS && users <= MAX_USERS; i++) {
    const half = Math.round((low + high) / 2 / 50) * 50;
    if (half <= low || half >= high) break;
    if (await run(half)) low = half;
    else high = half;
  }
  const best = steps.filter(passed).sort((a, b) => b.users - a.users)[0];
  return { best, failedAt: steps.filter((step) => !passed(step)).sort((a, b) => a.users - b.users)[0], idle };
}

function describe(outcome: Awaited<ReturnType<typeof ramp>>): { measured: string; users: number; notes: string[] } {
  const { best, failedAt, idle } = outcome;
  const notes: string[] = [];
  if (failedAt) {
    const failed = [...failedAt.failures].map(([what, { count, example }]) => `${count} × ${what} (${example.slice(0, 120)})`).join(", ");
    notes.push(`stopped at ${fmt(failedAt.users)} users: ${failed ? `failed ${failed}` : `p99 ${ms(failedAt.p99)}`}`);
  } else notes.push(`no step failed up to ${fmt(MAX_USERS)} users`);
  if (!best) return { measured: `no step passed (from ${fmt(FIRST_STEP)} users down)`, users: 0, notes };
  notes.push(
    `per fully-used core: ${fmt(best.users / best.cpu)} users (server CPU ${best.cpu.toFixed(2)} s per s)`,
    `idle, the server processes use ${idle.toFixed(2)} CPU s per s`,
    `generator sent ≤ ${ms(best.lateMs)} late`,
    `warm-up ${(best.warmupMs / 1000).toFixed(1)} s`,
    `mix: ${[...best.rates].map(([label, rps]) => `${shortName(label)} ${fmt(rps)}/s`).join(", ")}`,
    ...(best.watching ? [`${fmt(best.watching)} subscriptions held open`] : []),
  );
  const rps = [...best.rates.values()].reduce((a, b) => a + b, 0);
  return { measured: `${fmt(best.users)} users: ${fmt(rps)} req/s, p50 ${ms(best.p50)}, p99 ${ms(best.p99)}`, users: best.users, notes };
}

/** Server processes on one database, the first seeding it; stopped by `use`'s end. */
async function withServers<T>(
  count: number,
  env: Record<string, string>,
  use: (ready: ServerReady[], children: ChildProcess[]) => Promise<T>,
): Promise<T> {
  const children: ChildProcess[] = [];
  try {
    const first = startServer({ ...env, BENCH_SEED: JSON.stringify(SEED) });
    children.push(first.child);
    const ready = [await first.ready];
    for (let i = 1; i < count; i++) {
      const next = startServer({ ...env, BENCH_SEED: "none" });
      children.push(next.child);
      ready.push(await next.ready);
    }
    return await use(ready, children);
  } finally {
    await Promise.all(children.map(stopServer));
  }
}

/** What one process must carry on SQLite, in either profile. */
const TARGET_USERS = 30_000;
const PER_USER = `${Math.round(MIX.driver * 100)}% drivers online, ${Math.round(MIX.searching * 100)}% searching, ${Math.round(MIX.waiting * 100)}% waiting, rest idle`;

/** 6. The three deployments: SQLite in one process, PostgreSQL in one, PostgreSQL + Redis in three. */
export async function appLoadRows(settings: HttpSettings): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const ports = (ready: ServerReady[], children: ChildProcess[]) => ready.map((r, i) => ({ port: r.ports.app, child: children[i]! }));

  settings.progress(`  (a) SQLite, 1 process; seeding ${fmt(SEED.drivers)} drivers and ${SEED.pendingTrips} pending trips…`);
  const a = await withServers(1, {}, async (ready, children) =>
    describe(await ramp(ports(ready, children), ready[0]!, DEPLOYED_APP, settings, "SQLite")),
  );
  rows.push({
    path: "app users per process (SQLite, 1 process)",
    measured: a.measured,
    baseline: `target ${fmt(TARGET_USERS)} users (${PER_USER})`,
    ratio: a.users / TARGET_USERS,
    target: 1,
    note: a.notes.join("; "),
  });

  settings.progress("  (a′) SQLite, 1 process, the app's next version; a session for every user…");
  const next = await withServers(1, { BENCH_SESSIONS: "all" }, async (ready, children) =>
    describe(await ramp(ports(ready, children), ready[0]!, NEXT_APP, settings, "SQLite, next app")),
  );
  rows.push({
    path: "app users per process, the app's next version (SQLite, 1 process)",
    measured: next.measured,
    baseline: `target ${fmt(TARGET_USERS)} users, signed in, following trips and requests by subscription`,
    ratio: next.users / TARGET_USERS,
    target: 1,
    note: next.notes.join("; "),
  });

  const b = await withPgDatabase("bench_app", (url) =>
    withServers(1, { BENCH_DATABASE_URL: url }, async (ready, children) => {
      settings.progress("  (b) PostgreSQL, 1 process");
      return { result: describe(await ramp(ports(ready, children), ready[0]!, DEPLOYED_APP, settings, "PostgreSQL")) };
    }),
  );
  rows.push({
    path: "app users per process (PostgreSQL, 1 process)",
    measured: b.result.measured,
    baseline: `no target; (a) SQLite: ${fmt(a.users)} users`,
    ratio: b.result.users / Math.max(1, a.users),
    note: b.result.notes.join("; "),
  });

  const prefix = `bench-${randomUUID()}:`;
  const c = await withPgDatabase("bench_app", (url) =>
    withServers(3, { BENCH_DATABASE_URL: url, BENCH_REDIS_URL: REDIS_URL, BENCH_REDIS_PREFIX: prefix }, async (ready, children) => {
      settings.progress("  (c) PostgreSQL + Redis, 3 processes, users spread over them");
      return describe(await ramp(ports(ready, children), ready[0]!, DEPLOYED_APP, settings, "PostgreSQL ×3"));
    }),
  );
  rows.push({
    path: "app users, 3 processes (PostgreSQL + Redis)",
    measured: c.measured,
    baseline: `no target; (b) 1 process on PostgreSQL: ${fmt(b.result.users)} users`,
    ratio: c.users / Math.max(1, b.result.users),
    note: [...c.notes, "3 processes on 2 cores share them with the generator: bounded by the cores, not the design"].join("; "),
  });
  return rows;
}
