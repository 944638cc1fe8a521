import type { Client } from "graphql-ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../../src/db/client.js";
import { createTestDatabase, type TestDatabase } from "../support/database.js";
import { PASSWORD, uniqueEmail } from "../support/fixtures.js";
import { approveInDatabase, postTo as call, registerOn, startPair, type ServiceProcess } from "../support/process.js";
import { ESTADIO, LLERAS } from "../support/trips.js";
import { connect, subscribe } from "../support/ws.js";

/** Two service processes on one PostgreSQL database, their events through the local Redis. */
let database: TestDatabase;
let a: ServiceProcess;
let b: ServiceProcess;
let db: Database;
const clients: Client[] = [];

beforeAll(async () => {
  database = await createTestDatabase("postgresql");
  [a, b] = await startPair(database.url);
  db = await openDatabase(database.url);
});

afterAll(async () => {
  await Promise.all(clients.map((c) => c.dispose()));
  await Promise.all([a?.stop(), b?.stop()]);
  await db?.close();
  await database?.drop();
});

/** An approved driver with a complete vehicle, set up in the database as an administrator would. */
async function approvedDriver(service: ServiceProcess) {
  const driver = await registerOn(service, "conductor");
  await approveInDatabase(db.prisma, driver.id);
  return driver;
}

/** A graphql-ws client signed in as the user, with a token from the other process's login. */
const clientOn = async (service: ServiceProcess, user: { email: string }) => {
  const login = await call(service === a ? b : a, "/auth/login.php", { email: user.email, password: PASSWORD });
  const client = await connect(service.port, { authorization: `Bearer ${login.body.token}` });
  clients.push(client);
  return client;
};

describe("two processes sharing events through Redis", () => {
  it("deliver requests, trip changes and positions caused on one process to subscribers on the other", async () => {
    const driver = await approvedDriver(b);
    const passenger = await registerOn(b, "pasajero");
    const requests = await subscribe(
      await clientOn(a, driver),
      `subscription ($id: Int!) { tripRequests(conductorId: $id) { tipo viaje { id } } }`,
      { id: driver.id },
    );

    // The driver goes online through B; A's geo index learns it through Redis, so A can match the trip.
    expect((await call(b, "/conductor/update_location.php", { conductor_id: driver.id, ...LLERAS, disponibilidad: 1 })).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const created = await call(a, "/viajes/create_trip.php", {
      usuario_id: passenger.id,
      tipo_servicio: "auto",
      origen: LLERAS,
      destino: ESTADIO,
    });
    expect(created.status).toBe(200);
    const tripId = created.body.trip.id;
    expect((await requests.next()).tripRequests).toEqual({ tipo: "nueva", viaje: { id: tripId } });

    const updates = await subscribe(
      await clientOn(a, passenger),
      `subscription ($id: Int!) { tripUpdated(trip_id: $id) { id estado conductor_id } }`,
      { id: tripId },
    );
    const positions = await subscribe(
      await clientOn(a, passenger),
      `subscription ($id: Int!) { driverLocation(trip_id: $id) { conductor_id latitud } }`,
      { id: tripId },
    );

    expect((await call(b, "/viajes/accept_trip.php", { trip_id: tripId, conductor_id: driver.id })).status).toBe(200);
    expect((await updates.next()).tripUpdated).toEqual({ id: tripId, estado: "aceptado", conductor_id: driver.id });
    // The driver who took it is not told it was withdrawn (test/server/protocols.test.ts).

    await call(b, "/conductor/update_location.php", { conductor_id: driver.id, latitud: 6.2101, longitud: -75.566 });
    expect((await positions.next()).driverLocation).toEqual({ conductor_id: driver.id, latitud: 6.2101 });

    await call(b, "/viajes/start_trip.php", { trip_id: tripId });
    expect((await updates.next()).tripUpdated.estado).toBe("en_curso");
  });

  it(
    "keep every process's copy of the online drivers: " + "positions heard on either reach the database, a suspension on one reaches both",
    async () => {
      const origen = { latitud: 6.5, longitud: -75.4, direccion: "Zona de prueba" };
      const driver = await approvedDriver(a);
      expect((await call(a, "/conductor/update_location.php", { conductor_id: driver.id, ...origen, disponibilidad: 1 })).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 300));

      // B knows the driver from A's announcement: its ping is only a position, stored with B's next batch.
      expect(
        (await call(b, "/conductor/update_location.php", { conductor_id: driver.id, latitud: 6.5012, longitud: -75.4 })).body.ubicacion
          .disponibilidad,
      ).toBe(1);
      const stored = async () => (await db.prisma.driverStatus.findUniqueOrThrow({ where: { conductor_id: driver.id } })).latitud;
      for (let waited = 0; (await stored()) !== 6.5012 && waited < 5000; waited += 100)
        await new Promise((resolve) => setTimeout(resolve, 100));
      expect(await stored()).toBe(6.5012);

      expect((await call(b, "/admin/suspender_usuario.php", { user_id: driver.id, motivo: "Documentos falsos" })).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 300));
      const passenger = await registerOn(a, "pasajero");
      const trip = await call(a, "/viajes/create_trip.php", { usuario_id: passenger.id, tipo_servicio: "auto", origen, destino: ESTADIO });
      expect(trip.body).toMatchObject({ success: false, message: expect.stringMatching(/^No hay conductores disponibles/) });
    },
  );

  it("forget who a caller is on every process the moment an administrator changes them", async () => {
    const admin = () =>
      db.prisma.user.create({
        data: {
          email: uniqueEmail("admin"),
          nombre: "A",
          apellido: "B",
          telefono: "3001234567",
          password_hash: "x",
          tipo_usuario: "admin",
        },
      });
    const [boss, other] = [await admin(), await admin()];
    const list = () => fetch(`http://127.0.0.1:${a.port}/admin/user_management.php?admin_id=${other.id}`);
    expect((await list()).status).toBe(200);
    const demoted = await fetch(`http://127.0.0.1:${b.port}/admin/user_management.php`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ admin_id: boss.id, user_id: other.id, tipo_usuario: "pasajero" }),
    });
    expect(demoted.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await list()).status).toBe(403);
  });
});
