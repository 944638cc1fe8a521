/**
 * The server under test, in its own process so that the load generator does not share its event
 * loop: seeds a temporary SQLite file, starts the real server on it, and beside it the two raw
 * node:http baselines (a JSON echo, and the Prisma read get_trip.php does). Reports the ports to
 * the parent over IPC and stops when told to, or when the parent goes away.
 * Run by bench/run.ts as `node --import tsx bench/server-process.ts`; import only its types. The
 * server is the compiled one (bench/built.ts).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type RequestListener, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Db } from "../src/db/client.js";
import { applyMigrations, buildServer, loadConfig, openDatabase, openSession } from "./built.js";
import { seedCity, type SeededCity } from "./seed.js";

export interface ServerReady {
  kind: "ready";
  ports: { app: number; echo: number; read: number };
  /** A session token of the trip's passenger, for GraphQL. */
  token: string;
  city: SeededCity;
}

const DRIVERS = 3000;
// Every trip request needs a passenger without an active trip.
const PASSENGERS = 20_000;

/**
 * What Pothos asks Prisma for when GraphQL resolves get_trip.php's document: the trip, the
 * driver's name and phone, the driver's vehicle (checked against the server's SQL log).
 */
const TRIP_READ = {
  conductor: {
    select: {
      id: true,
      nombre: true,
      apellido: true,
      telefono: true,
      perfil_conductor: { select: { id: true, conductor_id: true, vehiculo: true } },
    },
  },
} as const;

const json = (body: string, status = 200) => ({
  status,
  headers: { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(body) },
});

/** Baseline (a): reads the body and answers it as JSON, nothing else. */
const echo: RequestListener = (req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (chunk: Buffer) => chunks.push(chunk));
  req.on("end", () => {
    const body = JSON.stringify(JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}"));
    const { status, headers } = json(body);
    res.writeHead(status, headers).end(body);
  });
};

/** Baseline (b): the Prisma read of get_trip.php, answered as JSON, without Yoga, GraphQL or the shim. */
const tripRead =
  (db: Db): RequestListener =>
  (req, res) => {
    const id = Number(new URL(req.url ?? "/", "http://localhost").searchParams.get("trip_id"));
    db.trip.findUnique({ where: { id }, include: TRIP_READ }).then(
      (trip) => {
        const body = JSON.stringify({ success: trip !== null, trip });
        const { status, headers } = json(body, trip ? 200 : 404);
        res.writeHead(status, headers).end(body);
      },
      () => res.writeHead(500).end(),
    );
  };

async function listen(handler: RequestListener): Promise<{ server: Server; port: number }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

const dir = mkdtempSync(join(tmpdir(), "rh-bench-"));
// Also when start-up fails.
process.on("exit", () => rmSync(dir, { recursive: true, force: true }));
const url = `file:${join(dir, "bench.db")}`;
const now = new Date();

await applyMigrations(url);
const seeding = await openDatabase(url);
const city = await seedCity(seeding.prisma, { drivers: DRIVERS, passengers: PASSENGERS, now });
await seeding.close();

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
  }),
);
const { port } = await app.start(0, "127.0.0.1");
const { token } = await openSession(app.deps, city.passengerIds[0]!, null);
const baselines = [await listen(echo), await listen(tripRead(app.deps.db))];

let stopping = false;
async function stop(): Promise<void> {
  if (stopping) return;
  stopping = true;
  for (const { server } of baselines) {
    server.closeAllConnections();
    server.close();
  }
  await app.stop();
  process.exit(0);
}

process.on("message", (message: { kind?: string }) => {
  if (message.kind === "stop") void stop();
});
process.on("disconnect", () => void stop());

const ready: ServerReady = { kind: "ready", ports: { app: port, echo: baselines[0]!.port, read: baselines[1]!.port }, token, city };
process.send!(ready);
