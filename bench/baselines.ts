/**
 * The raw node:http baselines the server's paths are measured against: a JSON echo, get_trip.php's
 * read with Prisma, and the rows of each read the apps repeat read with statements prepared once
 * (better-sqlite3, or named pg prepared statements), answered as JSON without Yoga, GraphQL or the
 * legacy shim. Served by bench/server-process.ts beside the server.
 */
import type { RequestListener } from "node:http";
import Sqlite from "better-sqlite3";
import pg from "pg";
import type { Db } from "../src/db/client.js";
import { boxAround } from "../src/db/nearby.js";
import { greatCircleKm, type Point } from "../src/domain/geo.js";
import { MATCH_RADIUS_KM } from "../src/domain/matching/eligibility.js";
import { ACTIVE_STATES } from "../src/domain/trip-states.js";

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

/**
 * The rows each read the apps repeat answers with, as SQL: one statement a table, as Prisma would
 * send them, but a list and the name shown beside each entry in one join.
 */
const SQL = {
  trip: "SELECT * FROM viajes WHERE id = $1",
  driver: "SELECT id, nombre, apellido, telefono, calificacion FROM usuarios WHERE id = $1",
  profile: "SELECT id, conductor_id FROM perfiles_conductor WHERE conductor_id = $1",
  vehicle: "SELECT * FROM vehiculos WHERE conductor_id = $1",
  position: "SELECT latitud, longitud, posicion_en FROM estados_conductor WHERE conductor_id = $1",
  activeTrips:
    "SELECT v.*, u.nombre AS cliente_nombre, u.apellido AS cliente_apellido FROM viajes v LEFT JOIN usuarios u ON u.id = v.usuario_id " +
    "WHERE v.usuario_id = $1 AND v.estado IN ($2, $3, $4, $5) ORDER BY v.fecha_solicitud DESC, v.id DESC",
  pending:
    "SELECT v.*, u.nombre AS cliente_nombre FROM viajes v LEFT JOIN usuarios u ON u.id = v.usuario_id " +
    "WHERE v.estado = 'pendiente' AND v.tipo_servicio = $1 AND v.origen_latitud BETWEEN $2 AND $3 AND v.origen_longitud BETWEEN $4 AND $5 " +
    "ORDER BY v.fecha_solicitud DESC, v.id DESC",
};
type Row = Record<string, unknown>;
/** Runs one of the statements: its rows. */
type Run = (statement: keyof typeof SQL, params: unknown[]) => Row[] | Promise<Row[]>;

const json = (body: string, status = 200) => ({
  status,
  headers: { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(body) },
});

const urlOf = (url: string | undefined) => new URL(url ?? "/", "http://localhost");

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
    db.trip.findUnique({ where: { id: Number(urlOf(req.url).searchParams.get("trip_id")) }, include: TRIP_READ }).then(
      (trip) => {
        const body = JSON.stringify({ success: trip != null, trip });
        const { status, headers } = json(body, trip ? 200 : 404);
        res.writeHead(status, headers).end(body);
      },
      () => res.writeHead(500).end(),
    );
  };

/** The trip, then its driver's name, profile and vehicle (and, for the status, where the driver is), nested as Prisma nests them. */
async function tripWithDriver(run: Run, tripId: number, withPosition: boolean): Promise<Row | undefined> {
  const [trip] = await run("trip", [tripId]);
  const driverId = trip?.conductor_id as number | null | undefined;
  if (!trip || driverId == null) return trip;
  const [[driver], [profile], [vehiculo], [position]] = await Promise.all([
    run("driver", [driverId]),
    run("profile", [driverId]),
    run("vehicle", [driverId]),
    withPosition ? run("position", [driverId]) : [undefined],
  ]);
  return {
    ...trip,
    conductor: driver && { ...driver, perfil_conductor: profile && { ...profile, vehiculo: vehiculo ?? null } },
    ...(withPosition && { ubicacion_conductor: position ?? null }),
  };
}

/** The pending requests of a service picked up within reach of a point, as a driver's poll finds them. */
async function pendingNear(run: Run, point: Point, serviceType: string): Promise<Row[]> {
  const { dLat, dLng } = boxAround(point, MATCH_RADIUS_KM);
  const rows = await run("pending", [
    serviceType,
    point.latitud - dLat,
    point.latitud + dLat,
    point.longitud - dLng,
    point.longitud + dLng,
  ]);
  return rows.filter(
    (trip) => greatCircleKm(point, { latitud: trip.origen_latitud as number, longitud: trip.origen_longitud as number }) <= MATCH_RADIUS_KM,
  );
}

/**
 * The reads on their paths: /trip?trip_id (get_trip.php's rows), /trip-status?trip_id (the same
 * and the driver's position), /active-trips?usuario_id, /pending?latitud&longitud&tipo_servicio.
 */
const preparedReads =
  (run: Run): RequestListener =>
  (req, res) => {
    const { pathname, searchParams: query } = urlOf(req.url);
    const number = (name: string) => Number(query.get(name));
    const read = async (): Promise<Row> => {
      switch (pathname) {
        case "/trip":
          return { trip: await tripWithDriver(run, number("trip_id"), false) };
        case "/trip-status":
          return { trip: await tripWithDriver(run, number("trip_id"), true) };
        case "/active-trips": {
          const trips = await run("activeTrips", [number("usuario_id"), ...ACTIVE_STATES]);
          return { trips, total: trips.length };
        }
        case "/pending": {
          const point = { latitud: number("latitud"), longitud: number("longitud") };
          const solicitudes = await pendingNear(run, point, query.get("tipo_servicio") ?? "");
          return { solicitudes, total: solicitudes.length };
        }
        default:
          return {};
      }
    };
    read().then(
      (answer) => {
        const body = JSON.stringify({ success: Object.keys(answer).length > 0, ...answer });
        const { status, headers } = json(body);
        res.writeHead(status, headers).end(body);
      },
      () => res.writeHead(500).end(),
    );
  };

/**
 * The reads with better-sqlite3 statements prepared once, on the server's SQLite file. Each value
 * is bound as `+?`, as the service binds them: SQLite plans a statement again at every run when
 * its planner looked at a bound value (an IN list, a range), which would make this baseline slow.
 */
export function sqliteReads(file: string): { handler: RequestListener; close: () => void } {
  const db = new Sqlite(file, { readonly: true });
  const statements = Object.fromEntries(
    Object.entries(SQL).map(([name, sql]) => [name, db.prepare<unknown[], Row>(sql.replace(/\$\d+/g, "+?"))]),
  ) as Record<keyof typeof SQL, Sqlite.Statement<unknown[], Row>>;
  return { handler: preparedReads((name, params) => statements[name].all(...params)), close: () => db.close() };
}

/** The reads with named prepared statements on a pg.Pool (each connection prepares them on first use). */
export function pgReads(url: string): { handler: RequestListener; close: () => Promise<void> } {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  const run: Run = (name, params) =>
    pool.query<Row>({ name: `bench_${name}`, text: SQL[name], values: params }).then((result) => result.rows);
  return { handler: preparedReads(run), close: () => pool.end() };
}
