import type { Client } from "graphql-ws";
import { afterAll, describe, expect, it } from "vitest";
import { PASSWORD } from "../support/fixtures.js";
import { approveInDatabase, pairOnPostgres, postTo as call, registerOn } from "../support/process.js";
import { connect, subscribe } from "../support/ws.js";
import { ESTADIO, LLERAS } from "../support/trips.js";

/** An administrator watching the live map on one process sees what happens on the other. */
const pair = pairOnPostgres();
const clients: Client[] = [];
afterAll(() => Promise.all(clients.map((client) => client.dispose())));

const LIVE = `subscription { liveOperations { conductores { conductor_id latitud } salidas viajes { id estado } } }`;

describe("the live map across processes", () => {
  it("shows drivers and trips of the other process, and the drivers' moves", async () => {
    const { a, b, db } = pair;
    const admin = await registerOn(a, "pasajero");
    await db.prisma.user.update({ where: { id: admin.id }, data: { tipo_usuario: "admin" } });
    const { token } = (await call(b, "/auth/login.php", { email: admin.email, password: PASSWORD })).body;
    const driver = await registerOn(a, "conductor");
    await approveInDatabase(db.prisma, driver.id);
    expect((await call(a, "/conductor/update_location.php", { conductor_id: driver.id, ...LLERAS, disponibilidad: 1 })).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 500));

    const client = await connect(b.port, { authorization: `Bearer ${token}` });
    clients.push(client);
    const live = await subscribe(client, LIVE);
    const next = async () => (await live.next(5000)).liveOperations;
    expect((await next()).conductores).toContainEqual({ conductor_id: driver.id, latitud: Math.round(LLERAS.latitud * 1000) / 1000 });

    const passenger = await registerOn(a, "pasajero");
    const created = await call(a, "/viajes/create_trip.php", {
      usuario_id: passenger.id,
      tipo_servicio: "auto",
      origen: LLERAS,
      destino: ESTADIO,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    let event = await next();
    while (event.viajes.length === 0) event = await next();
    expect(event.viajes).toEqual([{ id: created.body.trip.id, estado: "pendiente" }]);

    expect((await call(a, "/conductor/update_location.php", { conductor_id: driver.id, ...ESTADIO })).status).toBe(200);
    const moved = { conductor_id: driver.id, latitud: Math.round(ESTADIO.latitud * 1000) / 1000 };
    event = await next();
    while (
      !event.conductores.some(
        (d: { conductor_id: number; latitud: number }) => d.conductor_id === moved.conductor_id && d.latitud === moved.latitud,
      )
    ) {
      event = await next();
    }
    await live.close();
  });
});
