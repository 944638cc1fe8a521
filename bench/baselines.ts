/**
 * The raw node:http baselines the server's paths are measured against: a JSON echo, and
 * get_trip.php's read of a trip, its driver, the driver's profile and vehicle done three ways
 * (Prisma, prepared better-sqlite3 statements, named pg prepared statements), answered as JSON
 * without Yoga, GraphQL or the legacy shim. Served by bench/server-process.ts beside the server.
 */
import type { RequestListener } from "node:http";
import Sqlite from "better-sqlite3";
import pg from "pg";
import type { Db } from "../src/db/client.js";

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

/** The same rows in SQL, one statement a table as Prisma sends them: trip, driver, profile, vehicle. */
const TRIP_SQL = {
  trip: "SELECT * FROM viajes WHERE id = $1",
  driver: "SELECT id, nombre, apellido, telefono FROM usuarios WHERE id = $1",
  profile: "SELECT id, conductor_id FROM perfiles_conductor WHERE conductor_id = $1",
  vehicle: "SELECT * FROM vehiculos WHERE conductor_id = $1",
};
type Row = Record<string, unknown>;
/** One of the reads: the row asked for, or undefined. */
type Read = (statement: keyof typeof TRIP_SQL, id: number) => Row | undefined | Promise<Row | undefined>;

const json = (body: string, status = 200) => ({
  status,
  headers: { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(body) },
});

function answer(res: Parameters<RequestListener>[1], trip: unknown): void {
  const body = JSON.stringify({ success: trip != null, trip: trip ?? null });
  const { status, headers } = json(body, trip ? 200 : 404);
  res.writeHead(status, headers).end(body);
}

const tripIdOf = (url: string | undefined) => Number(new URL(url ?? "/", "http://localhost").searchParams.get("trip_id"));

/** Reads the body and answers it as JSON, nothing else. */
export const echo: RequestListener = (req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (chunk: Buffer) => chunks.push(chunk));
  req.on("end", () => {
    const body = JSON.stringify(JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}"));
    const { status, headers } = json(body);
    res.writeHead(status, headers).end(body);
  });
};

/** get_trip.php's Prisma read. */
export const prismaTripRead =
  (db: Db): RequestListener =>
  (req, res) => {
    db.trip.findUnique({ where: { id: tripIdOf(req.url) }, include: TRIP_READ }).then(
      (trip) => answer(res, trip),
      () => res.writeHead(500).end(),
    );
  };

/** The four statements in turn, each after the row it needs, nested as Prisma nests them. */
const sqlTripRead =
  (read: Read): RequestListener =>
  (req, res) => {
    const load = async () => {
      const trip = await read("trip", tripIdOf(req.url));
      const driverId = trip?.conductor_id as number | null | undefined;
      if (!trip || driverId == null) return trip;
      const [driver, profile, vehiculo] = await Promise.all([
        read("driver", driverId),
        read("profile", driverId),
        read("vehicle", driverId),
      ]);
      return { ...trip, conductor: driver && { ...driver, perfil_conductor: profile && { ...profile, vehiculo: vehiculo ?? null } } };
    };
    load().then(
      (trip) => answer(res, trip),
      () => res.writeHead(500).end(),
    );
  };

/** The read with better-sqlite3 statements prepared once, on the server's SQLite file (WAL, as the app opens it). */
export function sqliteTripRead(file: string): { handler: RequestListener; close: () => void } {
  const db = new Sqlite(file);
  db.pragma("journal_mode = WAL");
  const statements = Object.fromEntries(
    Object.entries(TRIP_SQL).map(([name, sql]) => [name, db.prepare<[number], Row>(sql.replace("$1", "?"))]),
  ) as Record<keyof typeof TRIP_SQL, Sqlite.Statement<[number], Row>>;
  return { handler: sqlTripRead((name, id) => statements[name].get(id)), close: () => db.close() };
}

/** The read with named prepared statements on a pg.Pool (each connection prepares them on first use). */
export function pgTripRead(url: string): { handler: RequestListener; close: () => Promise<void> } {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  const read: Read = (name, id) =>
    pool.query<Row>({ name: `bench_${name}`, text: TRIP_SQL[name], values: [id] }).then((result) => result.rows[0]);
  return { handler: sqlTripRead(read), close: () => pool.end() };
}
