/**
 * The server under test, in its own process so that the load generator does not share its event
 * loop: seeds the database (a temporary SQLite file unless BENCH_DATABASE_URL names another), starts
 * the real server on it, and beside it the raw node:http baselines (bench/baselines.ts). Reports
 * the ports to the parent over IPC, answers its CPU time when asked, and stops when told to, or
 * when the parent goes away.
 * Run by bench/servers.ts as `node --import tsx bench/server-process.ts`; import only its types. The
 * server is the compiled one (bench/built.ts).
 *
 * Environment, all optional: BENCH_DATABASE_URL; BENCH_SEED, the city to seed as JSON
 * (`{"drivers":3000,"passengers":30000,"pendingTrips":1000,"queuedTrips":5000}` by default) or `none` for a further
 * process on a database another one seeded; BENCH_SESSIONS=all, a session for every seeded user;
 * BENCH_REDIS_URL and BENCH_REDIS_PREFIX.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type RequestListener, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { echo, pgReads, prismaTripRead, sqliteReads } from "./baselines.js";
import { applyMigrations, buildServer, loadConfig, openDatabase, openSession } from "./built.js";
import type { SeededSessions } from "./app-users.js";
import { lookingDriver, seedCity, type SeededCity } from "./seed.js";

export interface ServerReady {
  kind: "ready";
  /** The server, and the baselines: echo, the Prisma read, the reads with prepared statements. */
  ports: { app: number; echo: number; read: number; prepared: number };
  /**
   * Session tokens ("" from a process that did not seed): of the accepted trip's passenger, and of
   * the driver who looks for trips (lookingDriver).
   */
  tokens: { rider: string; driver: string };
  /** With BENCH_SESSIONS=all, a session token for every seeded driver and passenger; otherwise none. */
  sessions: SeededSessions;
  /** What was seeded (empty from a process that did not seed). */
  city: SeededCity;
  databaseUrl: string;
}

/** The server's CPU time so far, answered to `{ kind: "cpu" }`. */
export interface ServerCpu {
  kind: "cpu";
  usage: NodeJS.CpuUsage;
}

const EMPTY_CITY: SeededCity = { drivers: [], passengerIds: [], tripId: 0, riderId: 0, pendingTripIds: [] };
// Every trip request needs a passenger without an active trip; drivers find requests around
// them, and the trip requests go to a pickup where thousands wait already.
const DEFAULT_SEED = { drivers: 3000, passengers: 30_000, pendingTrips: 1000, queuedTrips: 5000 };

async function listen(handler: RequestListener): Promise<{ server: Server; port: number }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

const dir = mkdtempSync(join(tmpdir(), "rh-bench-"));
// Also when start-up fails.
process.on("exit", () => rmSync(dir, { recursive: true, force: true }));
const file = join(dir, "bench.db");
const url = process.env.BENCH_DATABASE_URL ?? `file:${file}`;
const seed = process.env.BENCH_SEED === "none" ? null : { ...DEFAULT_SEED, ...JSON.parse(process.env.BENCH_SEED ?? "{}") };

let city = EMPTY_CITY;
if (seed) {
  await applyMigrations(url);
  const seeding = await openDatabase(url);
  city = await seedCity(seeding.prisma, { ...seed, now: new Date() });
  await seeding.close();
}

const app = await buildServer(
  loadConfig({
    DATABASE_URL: url,
    UPLOAD_DIR: join(dir, "uploads"),
    DEMO_DATA: "false",
    LOG_LEVEL: "silent",
    NODE_ENV: "production",
    LEGACY_AUTH: "ids",
    // The seeded drivers do not ping while other scenarios run; an hour keeps them all online
    // for the whole bench, as phones pinging every 10 s would.
    DRIVER_POSITION_MAX_AGE_S: "3600",
    REDIS_URL: process.env.BENCH_REDIS_URL,
    REDIS_CHANNEL_PREFIX: process.env.BENCH_REDIS_PREFIX,
  }),
);
const { port } = await app.start(0, "127.0.0.1");
const tokenOf = async (userId: number) => (seed ? (await openSession(app.deps, userId, null)).token : "");
const tokens = { rider: await tokenOf(city.riderId), driver: seed ? await tokenOf(lookingDriver(city.drivers).conductor_id) : "" };
const tokensOf = async (userIds: number[]) => {
  const all: string[] = [];
  for (const userId of userIds) all.push(await tokenOf(userId));
  return all;
};
const sessions: SeededSessions =
  process.env.BENCH_SESSIONS === "all"
    ? { drivers: await tokensOf(city.drivers.map((driver) => driver.conductor_id)), passengers: await tokensOf(city.passengerIds) }
    : { drivers: [], passengers: [] };
const prepared = url.startsWith("file:") ? sqliteReads(url.slice("file:".length)) : pgReads(url);
const baselines = [await listen(echo), await listen(prismaTripRead(app.deps.db)), await listen(prepared.handler)];

let stopping = false;
async function stop(): Promise<void> {
  if (stopping) return;
  stopping = true;
  for (const { server } of baselines) {
    server.closeAllConnections();
    server.close();
  }
  await prepared.close();
  await app.stop();
  process.exit(0);
}

process.on("message", (message: { kind?: string }) => {
  if (message.kind === "stop") void stop();
  if (message.kind === "cpu") process.send!({ kind: "cpu", usage: process.cpuUsage() } satisfies ServerCpu);
});
process.on("disconnect", () => void stop());

const [echoServer, readServer, preparedServer] = baselines.map((b) => b.port);
const ready: ServerReady = {
  kind: "ready",
  ports: { app: port, echo: echoServer!, read: readServer!, prepared: preparedServer! },
  tokens,
  sessions,
  city,
  databaseUrl: url,
};
process.send!(ready);
