import { once } from "node:events";
import { setTimeout as delay } from "node:timers/promises";
import type { Client } from "graphql-ws";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../../src/db/client.js";
import { PASSWORD } from "../support/fixtures.js";
import { createPgCluster, type PgCluster } from "../support/pg-cluster.js";
import { approveInDatabase, postTo as call, registerOn, startPair, type ServiceProcess } from "../support/process.js";
import { ESTADIO, LLERAS, northOf } from "../support/trips.js";
import { connect, subscribe } from "../support/ws.js";

/**
 * Waves are due in the database and any live process sends them: two processes on a PostgreSQL
 * cluster of the test's own (so it can be stopped), one request per wave, a wave every second.
 */
const WAVE_S = 1;
const SETTINGS = { DISPATCH_WAVE_S: String(WAVE_S), DISPATCH_WAVE_SIZE: "1", DEMO_DATA: "false" };
let cluster: PgCluster;
let url: string;
let db: Database;
const services: ServiceProcess[] = [];
const clients: Client[] = [];

beforeAll(async () => {
  cluster = await createPgCluster();
  await cluster.sql("CREATE DATABASE olas");
  url = cluster.url("olas");
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.dispose()));
  await Promise.all(services.splice(0).map((service) => service.stop()));
  await db?.close();
});
afterAll(() => cluster?.destroy());

async function pair() {
  const started = await startPair(url, SETTINGS);
  services.push(...started);
  // The processes have migrated the database by now.
  db = await openDatabase(url);
  return started;
}

/** Approved drivers online at these distances (km) from a pickup of their own, nearest first. */
let area = 0;
async function driversAround(service: ServiceProcess, distances: number[]) {
  const pickup = { ...northOf(LLERAS, 40 * ++area), direccion: `Zona ${area}` };
  const drivers = [];
  for (const km of distances) {
    const driver = await registerOn(service, "conductor");
    await approveInDatabase(db.prisma, driver.id);
    const online = await call(service, "/conductor/update_location.php", {
      conductor_id: driver.id,
      ...northOf(pickup, km),
      disponibilidad: 1,
    });
    expect(online.status).toBe(200);
    drivers.push(driver);
  }
  return { pickup, drivers };
}

/** A driver's feed of requests, over graphql-ws on `service`. */
async function requestsOf(service: ServiceProcess, driver: { id: number; email: string }) {
  const login = await call(service, "/auth/login.php", { email: driver.email, password: PASSWORD });
  const client = await connect(service.port, { authorization: `Bearer ${login.body.token}` });
  clients.push(client);
  return subscribe(client, `subscription ($id: Int!) { tripRequests(conductorId: $id) { tipo viaje { id } } }`, { id: driver.id });
}

async function requestTrip(service: ServiceProcess, pickup: object): Promise<number> {
  const passenger = await registerOn(service, "pasajero");
  const created = await call(service, "/viajes/create_trip.php", {
    usuario_id: passenger.id,
    tipo_servicio: "auto",
    origen: pickup,
    destino: ESTADIO,
  });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  return created.body.trip.id;
}

const offerTo = (tripId: number, conductorId: number) =>
  db.prisma.tripOffer.findUnique({ where: { viaje_id_conductor_id: { viaje_id: tripId, conductor_id: conductorId } } });

/** The service's JSON log lines. */
const logOf = (service: ServiceProcess) =>
  service
    .output()
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as { level: number; msg: string; failed?: Record<string, number> });

// Each test starts two processes and stops a database: on a loaded two-core machine that alone takes half a minute.
describe("the next wave of a request", { timeout: 90_000 }, () => {
  it("goes out from the other process when the one that created the trip is killed", async () => {
    const [a, b] = await pair();
    const { pickup, drivers } = await driversAround(b, [1, 2]);
    const second = await requestsOf(b, drivers[1]!);
    // A learns of the drivers through Redis.
    await delay(300);
    const tripId = await requestTrip(a, pickup);
    a.child.kill("SIGKILL");
    expect((await once(a.child, "exit"))[1]).toBe("SIGKILL");

    expect((await second.next(15_000)).tripRequests).toEqual({ tipo: "nueva", viaje: { id: tripId } });
    const trip = await db.prisma.trip.findUniqueOrThrow({ where: { id: tripId } });
    const offer = await offerTo(tripId, drivers[1]!.id);
    // On schedule: within 2 s of when it fell due.
    expect(offer!.mostrada_en.getTime() - trip.fecha_solicitud.getTime()).toBeLessThan((WAVE_S + 2) * 1000);
  });

  it("goes out once the database is back when it fell due while the database was down, and no process stops", async () => {
    const [a, b] = await pair();
    const { pickup, drivers } = await driversAround(a, [1, 2]);
    const second = await requestsOf(b, drivers[1]!);
    await delay(300);
    const tripId = await requestTrip(a, pickup);
    await cluster.stop("immediate");
    // The second wave falls due while nothing answers.
    await delay((WAVE_S + 1) * 1000);
    await cluster.start();

    expect((await second.next(15_000)).tripRequests).toEqual({ tipo: "nueva", viaje: { id: tripId } });
    // Sent once, by one of the two: the next event this driver hears is the request withdrawn.
    expect((await call(a, "/viajes/cancel_trip.php", { trip_id: tripId, motivo: "Cambio de planes" })).status).toBe(200);
    expect((await second.next()).tripRequests).toEqual({ tipo: "retirada", viaje: { id: tripId } });

    for (const service of [a, b]) {
      expect(service.child.exitCode, service.output()).toBeNull();
      // The outage is one warning and one line when it ends, with the passes that failed meanwhile.
      const ended = () => logOf(service).filter(({ msg }) => msg === "database available again");
      // Noticed by a probe of its own, up to a second after the database answers.
      await expect.poll(() => ended().length, { timeout: 10_000 }).toBe(1);
      const log = logOf(service);
      expect(log.filter(({ msg }) => msg.startsWith("database unavailable")).map(({ level }) => level)).toEqual([40]);
      const back = ended();
      expect(back.map(({ level }) => level)).toEqual([30]);
      expect(back[0]!.failed!["dispatch passes"]).toBeGreaterThan(1);
      expect(log.filter(({ msg }) => msg.startsWith("dispatch:"))).toEqual([]);
    }
  });
});
