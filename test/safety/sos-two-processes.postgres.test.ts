import type { Client } from "graphql-ws";
import { afterAll, describe, expect, it } from "vitest";
import { PASSWORD } from "../support/fixtures.js";
import { approveInDatabase, pairOnPostgres, postTo as call, registerOn, type ServiceProcess } from "../support/process.js";
import { ESTADIO, LLERAS } from "../support/trips.js";
import { connect, subscribe } from "../support/ws.js";

/** SOSs on two processes of one PostgreSQL database and one Redis: one incident, and every console hears of it. */
const pair = pairOnPostgres();
const clients: Client[] = [];
afterAll(() => Promise.all(clients.map((client) => client.dispose())));

async function tokenOf(service: ServiceProcess, user: { email: string }) {
  const login = await call(service, "/auth/login.php", { email: user.email, password: PASSWORD });
  expect(login.status, JSON.stringify(login.body)).toBe(200);
  return login.body.token as string;
}

/** A trip under way: a passenger's request on one process, taken and started on the other. */
async function tripUnderWay() {
  const { a, b, db } = pair;
  const driver = await registerOn(a, "conductor");
  await approveInDatabase(db.prisma, driver.id);
  expect((await call(a, "/conductor/update_location.php", { conductor_id: driver.id, ...LLERAS, disponibilidad: 1 })).status).toBe(200);
  await new Promise((resolve) => setTimeout(resolve, 300));
  const passenger = await registerOn(b, "pasajero");
  const created = await call(b, "/viajes/create_trip.php", {
    usuario_id: passenger.id,
    tipo_servicio: "auto",
    origen: LLERAS,
    destino: ESTADIO,
  });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const trip_id = created.body.trip.id as number;
  expect((await call(a, "/viajes/accept_trip.php", { trip_id, conductor_id: driver.id })).status).toBe(200);
  expect((await call(b, "/viajes/start_trip.php", { trip_id })).status).toBe(200);
  return { passenger, driver, trip_id };
}

/** An administrator's live alerts, from process `service`. */
async function alertsOn(service: ServiceProcess) {
  const adminUser = await registerOn(service, "pasajero");
  await pair.db.prisma.user.update({ where: { id: adminUser.id }, data: { tipo_usuario: "admin" } });
  const client = await connect(service.port, { authorization: `Bearer ${await tokenOf(service, adminUser)}` });
  clients.push(client);
  return subscribe(client, "subscription { sosAlerts { id viaje_id estado enlace_seguimiento } }");
}

describe("an SOS on two processes", () => {
  it("sent twice at once, once to each, makes one incident that a console on either hears of at once", async () => {
    const { a, b, db } = pair;
    const { passenger, trip_id } = await tripUnderWay();
    const [onA, onB] = [await alertsOn(a), await alertsOn(b)];
    const sos = { usuario_id: passenger.id, trip_id, latitud: 6.21, longitud: -75.57 };
    const sent = Date.now();
    const answers = await Promise.all([call(a, "/user/sos.php", sos), call(b, "/user/sos.php", sos)]);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
    const ids = answers.map((answer) => answer.body.incidente.id);
    expect(ids[0]).toBe(ids[1]);
    expect(await db.prisma.sosIncident.count({ where: { viaje_id: trip_id } })).toBe(1);
    // The one that made it carries the link; the other found it already made.
    expect(answers.filter((answer) => answer.body.incidente.enlace_seguimiento !== null)).toHaveLength(1);
    for (const feed of [onA, onB]) {
      const { sosAlerts } = await feed.next(2000);
      expect(sosAlerts).toMatchObject({ id: ids[0], viaje_id: trip_id, estado: "abierto" });
    }
    expect(Date.now() - sent).toBeLessThan(2000);
  });

  it("reaches every console even when the process that stored it never announced it", async () => {
    const { a, db } = pair;
    const { passenger, trip_id } = await tripUnderWay();
    const feed = await alertsOn(a);
    // As a process killed between its commit and its announcement leaves it: stored, unheard.
    const now = new Date();
    const incident = await db.prisma.sosIncident.create({
      data: { viaje_id: trip_id, usuario_id: passenger.id, rol: "pasajero", latitud: 6.2, longitud: -75.5, creado_en: now },
    });
    await db.prisma.sosIncidentStep.create({
      data: { incidente_id: incident.id, tipo: "enviado", actor_id: passenger.id, creado_en: now },
    });
    // The open incidents come first (the one of the test above among them), then this one within the sweep's second.
    const deadline = Date.now() + 2500;
    let heard: { id: number } | null = null;
    while (heard?.id !== incident.id) heard = (await feed.next(Math.max(1, deadline - Date.now()))).sosAlerts;
    expect(heard).toEqual({ id: incident.id, viaje_id: trip_id, estado: "abierto", enlace_seguimiento: null });
  });
});
