import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.js";
import { tripIn } from "../support/trips.js";

/** A process too busy to serve more turns requests away with 503; never an SOS from a party of an active trip. */
let app: TestApp;
let url: string;
beforeAll(async () => {
  // One request at a time, a tenth of a second in line at most; a sign-up with a slow hash holds the only place.
  app = await createTestApp({ env: { MAX_CONCURRENT_REQUESTS: "1", MAX_QUEUE_WAIT_MS: "100", BCRYPT_COST: "13" } });
  url = `http://127.0.0.1:${(await app.server.start(0, "127.0.0.1")).port}`;
});
afterAll(() => app.close());

const postJson = (path: string, body: Record<string, unknown>) =>
  fetch(`${url}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

describe("an SOS on a busy process", () => {
  it("is served while other calls are turned away", async () => {
    // Set up in-process, where nothing waits in line.
    const { passenger, driver, trip } = await tripIn(app, "en_curso");
    const slow = postJson("/auth/register.php", {
      email: `lento.${Date.now()}@example.com`,
      password: "Clave#Segura1",
      name: "L",
      lastName: "M",
      phone: "3001234567",
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const position = { trip_id: trip.id, latitud: 6.21, longitud: -75.57 };
    const [other, fromPassenger, fromDriver] = await Promise.all([
      fetch(`${url}/viajes/get_trip.php?trip_id=${trip.id}`),
      postJson("/user/sos.php", { usuario_id: passenger.id, ...position }),
      postJson("/conductor/sos.php", { conductor_id: driver.id, ...position }),
    ]);
    expect(other.status).toBe(503);
    expect([fromPassenger.status, fromDriver.status]).toEqual([200, 200]);
    expect((await fromPassenger.json()).incidente.rol).toBe("pasajero");
    expect((await slow).status).toBe(200);
    expect(await app.db.sosIncident.count({ where: { viaje_id: trip.id } })).toBe(2);
  });
});
