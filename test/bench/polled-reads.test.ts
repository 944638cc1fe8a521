import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pgReads, sqliteReads } from "../../bench/baselines.js";
import { polledReads, type PolledRead, type Target } from "../../bench/polled-reads.js";
import { lookingDriver, seedCity } from "../../bench/seed.js";
import type { ServerReady } from "../../bench/server-process.js";
import { createTestApp, type TestApp } from "../support/app.js";

let app: TestApp;
let baselines: { server: Server; close: () => unknown };
let reads: PolledRead[];

/** A target's request as the bench sends it: the answer's body. */
async function send(target: Target, headers = target.headers ?? {}): Promise<string> {
  const body = typeof target.body === "function" ? target.body() : target.body;
  const response = await fetch(`http://127.0.0.1:${target.port}${target.path}`, { method: target.method, headers, body });
  return response.text();
}

beforeAll(async () => {
  app = await createTestApp();
  const now = app.server.deps.clock.now();
  const city = await seedCity(app.db, { drivers: 60, passengers: 80, pendingTrips: 40, now });
  const looking = lookingDriver(city.drivers);
  const url = app.config.DATABASE_URL;
  const prepared = url.startsWith("file:") ? sqliteReads(url.slice("file:".length)) : pgReads(url);
  const server = createServer(prepared.handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baselines = { server, close: prepared.close };
  const port = (address: string) => Number(new URL(address).port);
  const ready: ServerReady = {
    kind: "ready",
    ports: { app: port(app.origin), echo: 0, read: 0, prepared: (server.address() as AddressInfo).port },
    tokens: { rider: await app.token(city.riderId), driver: await app.token(looking.conductor_id) },
    sessions: { drivers: [], passengers: [] },
    city,
    databaseUrl: url,
  };
  // The accepted trip's driver pings, as a driver on a trip does, so that the passenger sees where they are.
  const [driver] = city.drivers;
  await app.graphql(
    `mutation ($lat: Float!, $lng: Float!) { updateDriverLocation(latitud: $lat, longitud: $lng, disponibilidad: 1) { __typename } }`,
    { lat: driver!.latitud, lng: driver!.longitud },
    driver!.conductor_id,
  );
  reads = await polledReads(ready);
});
afterAll(async () => {
  baselines.server.close();
  await baselines.close();
  await app.close();
});

describe("the bench's reads the apps repeat", () => {
  it("are each answered by the service with the rows their baseline reads, and by the baseline", async () => {
    expect(reads.map((read) => read.path)).toEqual([
      "GET /viajes/get_trip.php",
      "GET /user/get_trip_status.php",
      "GET /viajes/get_active_trips.php",
      "POST /conductor/get_solicitudes_pendientes.php",
    ]);
    for (const { path, service, baseline } of reads) {
      const answer = await send(service);
      expect(service.ok(answer), `${path}: ${answer.slice(0, 300)}`).toBe(true);
      expect(baseline.ok(await send(baseline)), path).toBe(true);
      expect(service.headers?.authorization, path).toMatch(/^Bearer \S+$/);
    }
  });

  it("count an answer without the driver's rows as failed", async () => {
    for (const { path, service } of reads.slice(0, 2)) {
      const { authorization: _signedIn, ...anonymous } = service.headers ?? {};
      const answer = await send(service, anonymous);
      expect(answer, path).toContain('"success":true');
      expect(service.ok(answer), path).toBe(false);
    }
  });
});
