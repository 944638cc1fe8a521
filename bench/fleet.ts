/**
 * `npm run bench:fleet`: what a company's manager reads, on a fleet of 2,000 drivers with 200,000
 * trips over the last year (and the rest of the platform beside it: 1,000 drivers of no company
 * and 100,000 trips), on SQLite and on PostgreSQL. Each request is sent in-process (yoga's fetch:
 * GraphQL, the manager's token, the domain, the database; no network), one at a time, and its p99
 * is set against the 150 ms budget. Timings are never asserted. BENCH_FLEET_REQUESTS sets the
 * requests measured per row (300), BENCH_FLEET_DAYS the days the trips spread over (365).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { applyMigrations, buildServer, loadConfig, openDatabase, openSession } from "./built.js";
import { seedFleet } from "./fleet-seed.js";
import { withPgDatabase } from "./pg-database.js";
import { type BenchRow, printTable } from "./table.js";

const REQUESTS = Number(process.env.BENCH_FLEET_REQUESTS ?? 300);
const WARMUP = 30;
const BUDGET_MS = 150;
const SEED = {
  drivers: 2000,
  trips: 200_000,
  otherDrivers: 1000,
  otherTrips: 100_000,
  passengers: 20_000,
  days: Number(process.env.BENCH_FLEET_DAYS ?? 365),
};
const progress = (line: string) => process.stderr.write(`${line}\n`);

const ROW = `conductor_id nombre apellido email telefono estado_revision aprobado conexion vehiculo { placa tipo }
  viaje_actual { id estado } calificacion total_calificaciones tasa_aceptacion tasa_completacion deuda documentos { documento vence vencido }`;
const TRIP = `id estado tipo_servicio metodo_pago origen { direccion } destino { direccion } conductor_id conductor_nombre pasajero_nombre
  precio_final comision_plataforma comision_empresa ganancia_conductor fecha_solicitud fecha_fin`;
const MONEY = "bruto comision comision_empresa neto_plataforma neto";
const PERIOD = `viajes viajes_por_estado { estado cantidad } ingresos { viajes_completados ${MONEY} }`;
const FIGURES = `hoy { ${PERIOD} } mes { ${PERIOD} } periodo { ${PERIOD} } serie { intervalo puntos { inicio viajes completados cancelados ${MONEY} } }`;

/** What the fleet console reads: each a page or a panel, as one GraphQL request. */
const READS: Array<{ path: string; query: string }> = [
  {
    path: "companyDrivers, page of 20",
    query: `{ companyDrivers { __typename ... on PaginaConductoresEmpresa { items { ${ROW} } pagination { total } } } }`,
  },
  {
    path: "companyDrivers, page of 100",
    query: `{ companyDrivers(per_page: 100) { __typename ... on PaginaConductoresEmpresa { items { ${ROW} } pagination { total } } } }`,
  },
  {
    path: "companyTrips, page of 20",
    query: `{ companyTrips { __typename ... on PaginaViajesEmpresa { items { ${TRIP} } pagination { total } } } }`,
  },
  {
    path: "companyTrips of one driver, page of 20",
    query: `query ($conductor: Int!) { companyTrips(conductor_id: $conductor) { __typename ... on PaginaViajesEmpresa { items { ${TRIP} } pagination { total } } } }`,
  },
  {
    path: "companyTrips, page of 100",
    query: `{ companyTrips(per_page: 100) { __typename ... on PaginaViajesEmpresa { items { ${TRIP} } pagination { total } } } }`,
  },
  { path: "companyFigures (today, month, last 7 days)", query: `{ companyFigures { __typename ... on CifrasEmpresa { ${FIGURES} } } }` },
  {
    path: "companyFigures, range of 31 days",
    query: `query ($desde: String!, $hasta: String!) { companyFigures(desde: $desde, hasta: $hasta) { __typename ... on CifrasEmpresa { ${FIGURES} } } }`,
  },
  {
    path: "companyFigures, range of a year",
    query: `query ($inicio: String!, $hasta: String!) { companyFigures(desde: $inicio, hasta: $hasta) { __typename ... on CifrasEmpresa { ${FIGURES} } } }`,
  },
];

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!;
const ms = (value: number) => `${value < 10 ? value.toFixed(1) : Math.round(value)} ms`;
const day = (date: Date) => date.toISOString().slice(0, 10);

/** Seeds a new database, serves it in-process, and measures each read as the company's manager. */
async function measure(label: string, url: string, dir: string): Promise<BenchRow[]> {
  const now = new Date();
  progress(`${label}: seeding ${SEED.drivers.toLocaleString("en-US")} drivers and ${SEED.trips.toLocaleString("en-US")} trips…`);
  const began = performance.now();
  await applyMigrations(url);
  const seeding = await openDatabase(url);
  const { managerId, driverId } = await seedFleet(seeding.prisma, url, { ...SEED, now });
  const [mismatched] = await seeding.prisma.$queryRaw<Array<{ n: bigint | number }>>`
    SELECT COUNT(*) AS n FROM ofertas_viaje o JOIN viajes v ON v.id = o.viaje_id WHERE o.respuesta = 'aceptada' AND o.conductor_id <> v.conductor_id`;
  if (Number(mismatched?.n) !== 0) throw new Error("the seeded offers do not match their trips");
  // PostgreSQL's autovacuum would have vacuumed and analysed tables this size by the time anyone
  // reads them (index-only counts need the first), and the seed's writes would be long flushed;
  // SQLite is never analysed by the service.
  if (url.startsWith("postgresql")) {
    await seeding.prisma.$executeRawUnsafe("VACUUM ANALYZE");
    await seeding.prisma.$executeRawUnsafe("CHECKPOINT");
  }
  await seeding.close();
  progress(`  seeded in ${Math.round((performance.now() - began) / 1000)} s`);

  let statements = 0;
  const server = await buildServer(
    loadConfig({
      DATABASE_URL: url,
      UPLOAD_DIR: join(dir, "uploads"),
      DEMO_DATA: "false",
      LOG_LEVEL: "silent",
      NODE_ENV: "production",
      DRIVER_POSITION_MAX_AGE_S: "3600",
    }),
    { onQuery: () => statements++ },
  );
  try {
    const { token } = await openSession(server.deps, managerId, null);
    const daysAgo = (days: number) => day(new Date(now.getTime() - days * 24 * 3600 * 1000));
    const variables = { desde: daysAgo(30), inicio: daysAgo(365), hasta: day(now), conductor: driverId };
    const rows: BenchRow[] = [];
    for (const read of READS) {
      const send = async () => {
        const response = await server.fetch(
          new Request("http://bench/graphql", {
            method: "POST",
            headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
            body: JSON.stringify({ query: read.query, variables }),
          }),
        );
        return response.text();
      };
      /** Every answer is checked, after its time is taken: the read's own type, no error. */
      const check = (body: string) => {
        const { data, errors } = JSON.parse(body) as { data?: Record<string, { __typename?: string }>; errors?: unknown };
        const answered = data && Object.values(data)[0]?.__typename;
        if (errors || !answered || answered.endsWith("Error")) throw new Error(`${read.path}: ${body.slice(0, 300)}`);
      };
      for (let i = 0; i < WARMUP; i++) check(await send());
      const before = statements;
      const latencies: number[] = [];
      for (let i = 0; i < REQUESTS; i++) {
        const start = performance.now();
        const body = await send();
        latencies.push(performance.now() - start);
        check(body);
      }
      latencies.sort((x, y) => x - y);
      const p99 = percentile(latencies, 99);
      progress(`  ${read.path}: p50 ${ms(percentile(latencies, 50))}, p99 ${ms(p99)}`);
      rows.push({
        path: `${read.path} (${label})`,
        measured: `p99 ${ms(p99)}, p50 ${ms(percentile(latencies, 50))}`,
        baseline: `budget: p99 ${BUDGET_MS} ms`,
        ratio: BUDGET_MS / p99,
        target: 1,
        note: `${(statements - before) / REQUESTS} statements a request; ${REQUESTS} requests one at a time`,
      });
    }
    return rows;
  } finally {
    await server.stop();
  }
}

const loadBefore = loadavg();
const dir = mkdtempSync(join(tmpdir(), "rh-bench-fleet-"));
try {
  const rows = [
    ...(await measure("SQLite", `file:${join(dir, "fleet.db")}`, dir)),
    ...(await withPgDatabase("bench_fleet", (url) => measure("PostgreSQL", url, dir))),
  ];
  process.stdout.write(
    `${printTable(rows, loadBefore)}\n\nFleet: ${SEED.drivers} drivers, ${SEED.trips} trips over ${SEED.days} days; ` +
      `beside it ${SEED.otherDrivers} drivers of no company with ${SEED.otherTrips} trips.\n`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
