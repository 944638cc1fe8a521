import { randomBytes, randomUUID } from "node:crypto";
import pg from "pg";
import { loadavg } from "node:os";
import { setTimeout as sleep } from "node:timers/promises";
import { loadLine } from "../table.js";
import { type Account, goOnline, inParallel, newDriver, newPassenger, signInAdmin } from "./accounts.js";
import { CREATE_TRIP } from "./city.js";
import { type Answer, Api, Census, percentile } from "./client.js";
import { type Owned, progress, ToolError } from "./lifecycle.js";
import type { ProbeOptions } from "./options.js";
import { type Random, seeded } from "./random.js";
import { censusTable, crashLines, type Line, logLines, ms, percentiles, summaryTable } from "./report.js";
import { type Retried, untilSettled } from "./retry.js";
import { type Service, type Stack, startStack } from "./stack.js";
import { storedTrips, tripsByMarker } from "./stored.js";

/** Every request of the probe starts at Parque Lleras, where its drivers wait, and goes to the stadium. */
const LLERAS = { direccion: "Parque Lleras", latitud: 6.2086, longitud: -75.5659 };
const ESTADIO = { direccion: "Estadio Atanasio Girardot", latitud: 6.2568, longitud: -75.5904 };
const DRIVERS = 6;
const WARM_UP = 8;
/** Kill rounds whose retries may be waiting at once: a retry may wait a minute, the next round need not. */
const OUTSTANDING = 10;

interface Round {
  n: number;
  kind: "kill" | "postgres";
  /** Kill rounds: at a delay drawn around the median create, or the moment the trip is committed. */
  aim?: "median" | "commit";
  marker: string;
  /** After how long the process was killed (or PostgreSQL restarted). */
  delayMs: number;
  first: Answer;
  /** Whether the first call was answered before the blow. */
  answeredFirst: boolean;
  /** Trips with the marker right after the kill: the first call had committed. */
  committedAtKill?: number;
  retry?: Retried;
}

/**
 * The targeted probe: a keyed create_trip.php sent to one process, that process killed with
 * `kill -9` around the median time a create takes (the aim then moving toward the moment between
 * the trip's commit and its answer), and the same request with the same key retried on the other
 * process until an answer settles it; then rounds restarting PostgreSQL right after
 * a keyed create. Meanwhile drivers who poll take and complete every trip in a few seconds, so that
 * a request run twice shows as a second trip. Answers 1 on a key with two trips, a 500, or a retry
 * not answered with its key's trip.
 */
export async function runProbe(owned: Owned, options: ProbeOptions): Promise<number> {
  const loadBefore = loadavg();
  const random = seeded(options.seed);
  const runId = randomBytes(3).toString("hex");
  const stack = await startStack(owned, { processes: 2 });
  const [a, b] = stack.services as [Service, Service];
  const census = new Census();
  const api = new Api(stack.up, census, random.fork());

  progress(`onboarding ${DRIVERS} drivers and ${WARM_UP + options.rounds + options.pgRounds} passengers…`);
  const admin = await signInAdmin(api);
  const drivers = await inParallel(DRIVERS, DRIVERS, (i) => newDriver(api, admin, i + 1, "auto"));
  const passengers = await inParallel(WARM_UP + options.rounds + options.pgRounds, 4, (i) => newPassenger(api, i + 1));
  // The census is the probe's: onboarding is not counted.
  census.outcomes.clear();
  census.times.clear();
  const stands = drivers.map(() => ({
    latitud: LLERAS.latitud + random.between(-0.002, 0.002),
    longitud: LLERAS.longitud + random.between(-0.002, 0.002),
  }));
  await Promise.all(drivers.map((driver, i) => goOnline(api, driver, stands[i]!, random)));
  let done = false;
  const driving = drivers.map((driver, i) => drive(api, driver, stands[i]!, random.fork(), () => done));

  const request = (n: number, { keyed = true } = {}) => {
    const passenger = passengers[n]!;
    const marker = keyed ? `${runId}-${n}` : `${runId}-warm`;
    const body = { usuario_id: passenger.id, tipo_servicio: "auto", origen: { ...LLERAS, referencia: marker }, destino: ESTADIO };
    const headers: Record<string, string> = { authorization: `Bearer ${passenger.token}` };
    if (keyed) headers["idempotency-key"] = randomUUID();
    const label = keyed ? CREATE_TRIP : `${CREATE_TRIP} (warm-up, unkeyed)`;
    return { marker, send: (on: Service) => api.post(CREATE_TRIP, body, { headers, on, label }) };
  };

  progress(`warming up: ${WARM_UP} creates on process ${a.index}`);
  for (let n = 0; n < WARM_UP; n++) {
    const answer = await request(n).send(a);
    if (answer.status !== 200 || answer.body.success !== true) {
      throw new ToolError(`a create_trip.php of the warm-up answered ${answer.outcome}: ${answer.body.message ?? ""}`);
    }
  }
  // A process just started answers its first requests slowly: each round first warms it up, as
  // traffic would, with unkeyed creates by the warm-up passengers; the median of the last ten of
  // those is what a create takes now.
  const warm: number[] = [];
  let warmer = 0;
  const warmUp = async () => {
    for (let k = 0; k < 2; k++) {
      const answer = await request(warmer++ % WARM_UP, { keyed: false }).send(a);
      const trip = answer.body.trip;
      if (answer.status !== 200 || answer.body.success !== true || !trip) continue;
      warm.push(answer.ms);
      // Withdrawn at once, so that the drivers stay free for the round's request.
      await api.post(
        "/viajes/cancel_trip.php",
        { trip_id: trip.id, motivo: "Calentamiento" },
        { label: "/viajes/cancel_trip.php (warm-up)" },
      );
    }
  };
  const median = () => percentile(warm.slice(-10), 50);

  // Whether a request's trip is in the database, asked over a connection of the probe's own so
  // that a kill can follow a commit within a millisecond or so.
  const watcher = new pg.Client({ connectionString: stack.databaseUrl });
  watcher.on("error", () => undefined);
  await watcher.connect();
  let watching = true;
  owned.add("the probe's database connection", async () => {
    if (watching) await watcher.end();
  });
  const tripsOf = async (marker: string) =>
    (await watcher.query("SELECT id FROM viajes WHERE origen_referencia = $1", [marker])).rowCount ?? 0;

  progress(`${options.rounds} rounds killing process ${a.index}`);
  const rounds: Round[] = [];
  const retries: Array<Promise<void>> = [];
  const retryOn = (round: Round, on: Service, send: (on: Service) => Promise<Answer>) =>
    untilSettled(() => send(on), { deadlineMs: 180_000, random }).then((retried) => {
      round.retry = retried;
    });
  for (let i = 0; i < options.rounds; i++) {
    if (!(await a.startUntilUp(60_000))) throw new ToolError(`process ${a.index} could not be started again`);
    await warmUp();
    while (rounds.filter((r) => r.retry === undefined).length >= OUTSTANDING) await sleep(200);
    const { marker, send } = request(WARM_UP + i);
    // Every other round kills the moment the trip is committed, before its answer is out.
    const aim = i % 2 === 0 ? "median" : "commit";
    let answered = false;
    const firstCall = send(a).then((answer) => {
      answered = true;
      return answer;
    });
    const started = performance.now();
    if (aim === "median") await sleep(median() * random.between(0.5, 1.5));
    else while (!answered && performance.now() - started < 10_000 && (await tripsOf(marker)) === 0);
    const delayMs = performance.now() - started;
    const answeredFirst = answered;
    await a.kill();
    const round: Round = { n: i + 1, kind: "kill", aim, marker, delayMs, answeredFirst, first: await firstCall };
    round.committedAtKill = await tripsOf(marker);
    rounds.push(round);
    if (round.answeredFirst && round.first.status === 200) round.retry = { answer: null, answers: [], ms: 0 };
    else retries.push(retryOn(round, b, send));
    void a.startUntilUp(60_000);
  }
  watching = false;
  await watcher.end();
  await a.startUntilUp(60_000);
  progress(`waiting for ${retries.length} retries to settle…`);
  await Promise.all(retries);

  for (let i = 0; i < options.pgRounds; i++) {
    progress(`PostgreSQL round ${i + 1} of ${options.pgRounds}`);
    await Promise.all([a.startUntilUp(60_000), b.startUntilUp(60_000)]);
    const { marker, send } = request(WARM_UP + options.rounds + i);
    const [to, other] = random.next() < 0.5 ? [a, b] : [b, a];
    await warmUp();
    const delayMs = median() * random.between(0, 0.5);
    let answered = false;
    const firstCall = send(to).then((answer) => {
      answered = true;
      return answer;
    });
    await sleep(delayMs);
    const answeredFirst = answered;
    const restarted = stack.pg.restart("immediate");
    const round: Round = { n: i + 1, kind: "postgres", marker, delayMs, answeredFirst, first: await firstCall };
    rounds.push(round);
    await restarted;
    if (round.first.status === 200) round.retry = { answer: null, answers: [], ms: 0 };
    else await retryOn(round, other, send);
  }

  // The last trips taken and completed, then the drivers stop.
  await sleep(8000);
  done = true;
  await Promise.all(driving);
  const stored = tripsByMarker(await storedTrips(stack));
  const { lines, failed, detail } = judge(rounds, stored, census, median(), stack);
  const text = [
    `soak --probe: 2 processes, ${DRIVERS} drivers who poll and complete every trip; ${options.rounds} rounds with kill -9, ` +
      `${options.pgRounds} with a PostgreSQL restart; seed ${options.seed}`,
    "",
    ...summaryTable(lines),
    "",
    ...detail,
    "",
    ...censusTable(census),
    "",
    ...crashLines(stack),
    ...logLines(stack.logs),
    "",
    loadLine(loadBefore),
    failed.length > 0 ? `FAILED: ${failed.join("; ")}` : "PASSED",
  ];
  process.stdout.write(`${text.join("\n")}\n`);
  return failed.length > 0 ? 1 : 0;
}

/** A driver who pings, looks for requests every second and takes, starts and completes each at once. */
async function drive(api: Api, driver: Account, position: { latitud: number; longitud: number }, random: Random, done: () => boolean) {
  const conductor = { conductor_id: driver.id };
  let pinged = Date.now();
  while (!done()) {
    if (Date.now() - pinged > 3000) {
      pinged = Date.now();
      await api.post("/conductor/update_location.php", { ...conductor, ...position, disponibilidad: 1 }, { timeoutMs: 10_000 });
    }
    const pending = await api.get("/conductor/get_pending_requests.php", conductor, { timeoutMs: 10_000 });
    const solicitud = (pending.body as { solicitudes?: Array<{ id: number }> }).solicitudes?.[0];
    if (solicitud) {
      const trip = { trip_id: solicitud.id };
      const accepted = await api.post("/viajes/accept_trip.php", { ...trip, ...conductor });
      if (accepted.status === 200) {
        for (const [path, fields] of [
          ["/viajes/start_trip.php", {}],
          ["/viajes/complete_trip.php", { precio_final: 12_000 }],
        ] as const) {
          await sleep(300);
          await untilSettled(() => api.post(path, { ...trip, ...fields }), { deadlineMs: 60_000, random });
        }
      }
    }
    await sleep(1000);
  }
}

function judge(rounds: Round[], stored: ReturnType<typeof tripsByMarker>, census: Census, median: number, stack: Stack) {
  const perKey = new Map<number, number>();
  const detail: string[] = [];
  let answeredWithFirst = 0;
  let retried = 0;
  const waits: number[] = [];
  const wrong: string[] = [];
  let unmeasured = 0;
  for (const round of rounds) {
    const trips = stored.get(round.marker) ?? [];
    const settled = round.retry?.answer ?? (round.first.status === 200 ? round.first : null);
    // No driver was free: the round measured nothing.
    if (trips.length === 0 && settled?.status === 200 && settled.body.success === false) {
      unmeasured++;
      continue;
    }
    perKey.set(trips.length, (perKey.get(trips.length) ?? 0) + 1);
    const answeredId = settled?.body.trip?.id;
    const firstTrip = trips[0]?.id;
    if (round.retry && round.retry.answers.length > 0) {
      retried++;
      waits.push(round.retry.ms);
      if (answeredId !== undefined && answeredId === firstTrip) answeredWithFirst++;
    }
    const bad =
      trips.length !== 1 || answeredId !== firstTrip || [round.first, ...(round.retry?.answers ?? [])].some((a) => a.status === 500);
    if (!bad) continue;
    if (answeredId !== firstTrip)
      wrong.push(`${settled ? `${settled.outcome} ${settled.body.message ?? ""}`.trim() : "no settling answer"}`.slice(0, 80));
    detail.push(
      `- ${round.kind === "kill" ? "kill" : "PostgreSQL"} round ${round.n}: blow after ${ms(round.delayMs)}` +
        (round.committedAtKill === undefined ? "" : `, ${round.committedAtKill} trip committed at the kill`) +
        `; first call ${round.first.outcome}` +
        (round.retry && round.retry.answers.length > 0
          ? `; retry: ${round.retry.answers.map((a) => a.outcome).join(" ")} over ${ms(round.retry.ms)}, answered ${answeredId ?? "no trip"}`
          : "") +
        `; trips with its key: ${trips.map((t) => `${t.id} (${t.estado})`).join(", ") || "none"}`,
    );
  }
  const kills = rounds.filter((r) => r.kind === "kill");
  const restarts = rounds.filter((r) => r.kind === "postgres");
  const failures = census.serverFailures();
  const fiveHundreds = failures.reduce((sum, f) => sum + f.count, 0);
  const duplicates = [...perKey].filter(([trips]) => trips > 1).reduce((sum, [, n]) => sum + n, 0);
  const outcomes = (list: Round[]) => {
    const counts = new Map<string, number>();
    for (const r of list) counts.set(r.first.outcome, (counts.get(r.first.outcome) ?? 0) + 1);
    return [...counts].map(([outcome, n]) => `${n} × ${outcome}`).join(", ");
  };
  const lines: Line[] = [
    {
      what: "rounds",
      measured: `${kills.length} × kill -9, ${restarts.length} × PostgreSQL restart`,
      note:
        `half the kills after 0.5–1.5 × the median create of the warmed-up process (${ms(median)} lately), ` +
        "half the moment the trip was committed; PostgreSQL restarted within half the median create after a create was sent",
    },
    {
      what: "trips per key",
      measured: [...perKey]
        .sort((x, y) => x[0] - y[0])
        .map(([trips, n]) => `${trips} trip${trips === 1 ? "" : "s"} × ${n}`)
        .join(", "),
      target: "1",
      ok: duplicates === 0 && !perKey.has(0),
      note: unmeasured > 0 ? `${unmeasured} rounds left out: no driver was free, the request was answered success false` : "",
    },
    {
      what: "retries answered with the first trip",
      measured: `${answeredWithFirst} of ${retried}`,
      target: "all",
      ok: answeredWithFirst === retried,
      note: wrong.length > 0 ? `otherwise: ${[...new Set(wrong)].join("; ")}` : "",
    },
    {
      what: "retries waiting > 5 s",
      measured: `${waits.filter((w) => w > 5000).length} of ${retried}`,
      note: percentiles(waits),
    },
    {
      what: "500 answers (any 5xx but 503)",
      measured: String(fiveHundreds),
      target: "0",
      ok: fiveHundreds === 0,
      note: failures.map((f) => `${f.count} × ${f.outcome} ${f.path}`).join(", "),
    },
    ...(["median", "commit"] as const).map((aim) => {
      const aimed = kills.filter((r) => r.aim === aim);
      return {
        what: `kill rounds aimed at the ${aim === "median" ? "median create" : "commit"}`,
        measured: `${aimed.filter((r) => !r.answeredFirst && (r.committedAtKill ?? 0) > 0).length} of ${aimed.length} killed between commit and answer`,
        note:
          `answered before the kill: ${aimed.filter((r) => r.answeredFirst).length}, ` +
          `killed before the trip was committed: ${aimed.filter((r) => !r.answeredFirst && r.committedAtKill === 0).length}; ` +
          `killed after ${percentiles(aimed.map((r) => r.delayMs))}`,
      };
    }),
    { what: "PostgreSQL rounds: the first call", measured: outcomes(restarts) },
    { what: "crashes (a process exited by itself)", measured: String(stack.crashes.length), target: "0", ok: stack.crashes.length === 0 },
  ];
  const failed = lines.filter((l) => l.ok === false).map((l) => `${l.what}: ${l.measured}`);
  return { lines, failed, detail };
}
