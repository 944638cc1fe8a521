/**
 * `npm run bench:bookings`: 10,000 reservations falling due within 15 minutes, dispatched by the
 * service as deployed (`node build/index.js`): one process on SQLite, three on PostgreSQL. Each
 * reservation's lateness is when its trip was made (fecha_solicitud) less when it fell due (its
 * pickup time less BOOKING_DISPATCH_LEAD_MIN); the run checks that every reservation became exactly
 * one trip. Timings are never asserted. BENCH_BOOKINGS sets how many (10,000), BENCH_BOOKING_WINDOW_S
 * the seconds they fall due over (900: the quarter of an hour; 60 packs them 15 times tighter).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { applyMigrations, openDatabase } from "./built.js";
import { withPgDatabase } from "./pg-database.js";
import { pointInCity } from "./seed.js";
import { type BenchRow, printTable } from "./table.js";

const COUNT = Number(process.env.BENCH_BOOKINGS ?? 10_000);
const WINDOW_S = Number(process.env.BENCH_BOOKING_WINDOW_S ?? 900);
const PASSENGERS = 200;
const LEAD_MIN = 15;
const POLL_MS = 1000;
/** A reservation is on time when made within a pass's interval of falling due, plus a second for the pass's own work. */
const BUDGET_MS = POLL_MS + 1000;
/** Time for the processes to start before the first reservation falls due. */
const SETTLE_MS = 15_000;
const progress = (line: string) => process.stderr.write(`${line}\n`);
const ROOT = fileURLToPath(new URL("..", import.meta.url));

/** The service as `npm start` runs it, without demo data, resolved once it listens. */
async function startService(databaseUrl: string, index: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, ["--enable-source-maps", "build/index.js"], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      PORT: "0",
      HOST: "127.0.0.1",
      NODE_ENV: "production",
      DEMO_DATA: "false",
      // "listening" is an info line.
      LOG_LEVEL: "info",
      BOOKING_POLL_MS: String(POLL_MS),
      BOOKING_DISPATCH_LEAD_MIN: String(LEAD_MIN),
      UPLOAD_DIR: join(tmpdir(), `rh-bench-uploads-${process.pid}-${index}`),
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  await new Promise<void>((resolve, reject) => {
    let output = "";
    const listening = (chunk: Buffer) => {
      output += chunk.toString();
      if (!/"msg":"listening"/.test(output)) return;
      child.stdout!.off("data", listening);
      // Read on, unkept, so that the pipe never fills.
      child.stdout!.resume();
      resolve();
    };
    child.stdout!.on("data", listening);
    child.once("exit", (code) => reject(new Error(`a service process ended (${code}): ${output}`)));
  });
  return child;
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await exited;
}

/** Passengers, and COUNT reservations falling due one after the other over WINDOW_S from `firstDue`; their reminders already sent. */
async function seed(databaseUrl: string, firstDue: Date) {
  await applyMigrations(databaseUrl);
  const database = await openDatabase(databaseUrl);
  const db = database.prisma;
  const now = new Date();
  await db.user.createMany({
    data: Array.from({ length: PASSENGERS }, (_, i) => ({
      nombre: "Pasajero",
      apellido: String(i),
      email: `reserva.${i}@bench.example`,
      telefono: "3001234567",
      password_hash: "x",
    })),
  });
  const passengers = (await db.user.findMany({ select: { id: true } })).map(({ id }) => id);
  const leadMs = LEAD_MIN * 60_000;
  const rows = Array.from({ length: COUNT }, (_, i) => {
    const origin = pointInCity();
    const destination = pointInCity();
    const due = firstDue.getTime() + Math.floor((i * WINDOW_S * 1000) / COUNT);
    return {
      usuario_id: passengers[i % passengers.length]!,
      fecha_programada: new Date(due + leadMs),
      tipo_servicio: "auto",
      metodo_pago: "efectivo",
      origen_direccion: "Calle 10 # 43-12",
      origen_latitud: origin.latitud,
      origen_longitud: origin.longitud,
      destino_direccion: "Carrera 70 # 44-20",
      destino_latitud: destination.latitud,
      destino_longitud: destination.longitud,
      precio_estimado: 15_000,
      distancia_km: 6,
      duracion_estimada_minutos: 18,
      recordatorio_1h_en: now,
      recordatorio_15m_en: now,
      creada_en: now,
    };
  });
  for (let i = 0; i < rows.length; i += 1000) await db.reservation.createMany({ data: rows.slice(i, i + 1000) });
  await database.close();
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

/** Seeds, starts `processes` services, waits for every reservation to be dispatched, and measures. */
async function run(label: string, databaseUrl: string, processes: number): Promise<BenchRow> {
  const firstDue = new Date(Date.now() + SETTLE_MS);
  await seed(databaseUrl, firstDue);
  progress(`${label}: ${COUNT} reservations due from ${firstDue.toISOString()} over ${WINDOW_S} s, ${processes} process(es)`);
  const children = await Promise.all(Array.from({ length: processes }, (_, i) => startService(databaseUrl, i)));
  // Opened once the services run: a connection kept from before they migrated waits on SQLite for ever.
  const database = await openDatabase(databaseUrl);
  const db = database.prisma;
  try {
    const deadline = firstDue.getTime() + WINDOW_S * 1000 + 120_000;
    for (;;) {
      const left = await db.reservation.count({ where: { estado: "programada" } });
      progress(`${label}: ${COUNT - left} of ${COUNT} dispatched`);
      if (left === 0 || Date.now() > deadline) break;
      await new Promise((resolve) => setTimeout(resolve, 2000));
    }
    const bookings = await db.reservation.findMany({ select: { id: true, estado: true, fecha_programada: true, viaje_id: true } });
    const trips = await db.trip.findMany({ select: { id: true, fecha_solicitud: true } });
    const madeAt = new Map(trips.map((trip) => [trip.id, trip.fecha_solicitud.getTime()]));
    const dispatched = bookings.filter((booking) => booking.estado === "despachada" && booking.viaje_id !== null);
    // The work the row claims: every reservation became one trip, and no trip is left over.
    if (dispatched.length !== COUNT || trips.length !== COUNT) {
      throw new Error(`${label}: ${dispatched.length} of ${COUNT} reservations dispatched into ${trips.length} trips`);
    }
    const leadMs = LEAD_MIN * 60_000;
    const lateness = dispatched
      .map((booking) => madeAt.get(booking.viaje_id!)! - (booking.fecha_programada.getTime() - leadMs))
      .sort((a, b) => a - b);
    const p99 = quantile(lateness, 0.99);
    return {
      path: `${COUNT.toLocaleString("en")} reservations due within ${WINDOW_S} s, ${label}`,
      measured: `lateness p50 ${quantile(lateness, 0.5)} ms, p99 ${p99} ms, max ${lateness.at(-1)} ms; ${COUNT.toLocaleString("en")} trips, one each`,
      baseline: `budget: BOOKING_POLL_MS (${POLL_MS} ms) + 1 s`,
      ratio: BUDGET_MS / Math.max(1, p99),
      target: 1,
    };
  } finally {
    await Promise.all(children.map(stop));
    await database.close();
  }
}

const loadBefore = loadavg();
const rows: BenchRow[] = [];
const dir = mkdtempSync(join(tmpdir(), "rh-bench-bookings-"));
try {
  rows.push(await run("SQLite, 1 process", `file:${join(dir, "bookings.db")}`, 1));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
rows.push(await withPgDatabase("bench_bookings", (url) => run("PostgreSQL, 3 processes", url, 3)));
process.stdout.write(`${printTable(rows, loadBefore)}\n`);
