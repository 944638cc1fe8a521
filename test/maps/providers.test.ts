import { LEGACY_STATUS } from "../../src/rest/status.js";
import polyline from "@mapbox/polyline";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UpstreamError } from "../../src/domain/errors.js";
import { offlineRouter } from "../../src/domain/maps/offline-router.js";
import { SPEEDS } from "../../src/domain/maps/speed.js";
import { routerWithFallback } from "../../src/adapters/maps/index.js";
import { createTestApp, type TestApp } from "../support/app.js";
import { FixedClock } from "../support/clock.js";
import { sendJson, startStub, type StubServer } from "../support/stub-server.js";

const LLERAS = { latitud: 6.2086, longitud: -75.5659 };
const ESTADIO = { latitud: 6.2568, longitud: -75.5904 };
const PATH: Array<[number, number]> = [
  [6.2086, -75.5659],
  [6.2301, -75.5702],
  [6.2455, -75.5855],
  [6.2568, -75.5904],
];

/** An OSRM /route answer, in the service's format. */
const osrmAnswer = {
  code: "Ok",
  routes: [
    {
      geometry: polyline.encode(PATH),
      distance: 7243.6,
      duration: 840,
      weight_name: "routability",
      weight: 840,
      legs: [
        {
          distance: 7243.6,
          duration: 840,
          summary: "Avenida El Poblado, Avenida 80",
          weight: 840,
          steps: [
            {
              name: "Calle 10",
              distance: 300,
              duration: 40,
              maneuver: { type: "depart", location: [-75.5659, 6.2086], bearing_after: 0, bearing_before: 0 },
            },
            {
              name: "Avenida El Poblado",
              distance: 3000,
              duration: 300,
              maneuver: { type: "turn", modifier: "right", location: [-75.57, 6.21] },
            },
            { name: "", distance: 200, duration: 30, maneuver: { type: "roundabout", exit: 2, location: [-75.58, 6.24] } },
            {
              name: "Avenida 80",
              distance: 3700,
              duration: 470,
              maneuver: { type: "new name", modifier: "straight", location: [-75.585, 6.245] },
            },
            { name: "", distance: 0, duration: 0, maneuver: { type: "arrive", location: [-75.5904, 6.2568] } },
          ],
        },
      ],
    },
  ],
  waypoints: [
    { hint: "x", distance: 4.2, name: "Calle 10", location: [-75.5659, 6.2086] },
    { hint: "y", distance: 2.1, name: "Avenida 80", location: [-75.5904, 6.2568] },
  ],
};

const nominatimMedellin = {
  place_id: 298183640,
  licence: "Data © OpenStreetMap contributors, ODbL 1.0. http://osm.org/copyright",
  osm_type: "relation",
  osm_id: 1343278,
  lat: "6.2443382",
  lon: "-75.573553",
  category: "boundary",
  type: "administrative",
  place_rank: 16,
  importance: 0.72,
  addresstype: "city",
  name: "Medellín",
  display_name: "Medellín, Valle de Aburrá, Antioquia, Colombia",
  address: {
    city: "Medellín",
    county: "Valle de Aburrá",
    state: "Antioquia",
    "ISO3166-2-lvl4": "CO-ANT",
    country: "Colombia",
    country_code: "co",
  },
  boundingbox: ["6.1", "6.4", "-75.7", "-75.4"],
};

type Mode = "ok" | "slow" | "error" | "empty";
let mode: Mode = "ok";
let stub: StubServer;
let app: TestApp;
const clock = new FixedClock("2026-03-11T04:00:00Z"); // 23:00 in Bogotá: free-flowing night

beforeAll(async () => {
  stub = await startStub((request, response) => {
    const url = new URL(request.url ?? "/", "http://stub");
    if (mode === "slow") return void setTimeout(() => sendJson(response, 200, {}), 3000);
    if (mode === "error") return sendJson(response, 500, { message: "boom" });
    if (url.pathname.startsWith("/route/v1/driving/")) return sendJson(response, 200, osrmAnswer);
    if (url.pathname === "/search") return sendJson(response, 200, mode === "empty" ? [] : [nominatimMedellin]);
    if (url.pathname === "/reverse") {
      return sendJson(
        response,
        200,
        mode === "empty"
          ? { error: "Unable to geocode" }
          : { ...nominatimMedellin, display_name: "Carrera 43A, El Poblado, Medellín, Antioquia, Colombia" },
      );
    }
    sendJson(response, 404, {});
  });
  app = await createTestApp({
    clock,
    env: { OSRM_URL: stub.url, NOMINATIM_URL: `${stub.url}/`, MAPS_TIMEOUT_MS: "300" },
  });
});
afterAll(async () => {
  await app.close();
  await stub.close();
});

const route = async () => (await app.legacy("POST", "/map/calculate_route.php", { origin: LLERAS, destination: ESTADIO })).body.route;

describe("with an OSRM server", () => {
  it("takes the path, distance and instructions from its answer", async () => {
    mode = "ok";
    const answer = await route();
    expect(stub.requests.at(-1)).toBe("/route/v1/driving/-75.5659,6.2086;-75.5904,6.2568?overview=full&geometries=polyline&steps=true");
    expect(answer.distancia_km).toBe(7.24);
    expect(answer.puntos).toEqual(PATH.map(([latitud, longitud]) => ({ latitud, longitud })));
    expect(answer.instrucciones).toBe(
      "Sal por Calle 10. Gira a la derecha por Avenida El Poblado. En la glorieta toma la 2.ª salida. " +
        "Continúa por Avenida 80. Llegas a tu destino",
    );
  });

  it("keeps the server's free-flow time at night and slows it down at peak", async () => {
    mode = "ok";
    expect((await route()).duracion_minutos).toBe(14);
    clock.set("2026-03-10T12:30:00Z"); // Tuesday 07:30
    expect((await route()).duracion_minutos).toBe(Math.ceil((14 * SPEEDS.night) / SPEEDS.peak));
    clock.set("2026-03-11T04:00:00Z");
  });

  it.each(["slow", "error"] as const)("falls back to the offline router when the server is %s", async (failure) => {
    mode = failure;
    const started = Date.now();
    const answer = await route();
    expect(Date.now() - started).toBeLessThan(2000);
    const offline = await offlineRouter.route(LLERAS, ESTADIO);
    expect(answer.distancia_km).toBe(offline.distanceKm);
    expect(answer.puntos).toEqual(offline.points);
  });

  it("answers 500 only when no router can answer", async () => {
    const broken = { route: async () => Promise.reject(new Error("down")) };
    const router = routerWithFallback(broken, broken, app.server.deps.log);
    await expect(router.route(LLERAS, ESTADIO)).rejects.toBeInstanceOf(UpstreamError);
    expect(LEGACY_STATUS[new UpstreamError("x").code]).toBe(500);
  });
});

describe("with a Nominatim server", () => {
  it("geocodes through its search, restricted to Colombia", async () => {
    mode = "ok";
    const response = await app.legacy("GET", "/map/geocode.php", { address: "Carrera 43A, Medellín" });
    const searched = new URL(stub.requests.at(-1)!, "http://stub");
    expect(searched.pathname).toBe("/search");
    expect(Object.fromEntries(searched.searchParams)).toEqual({
      format: "jsonv2",
      addressdetails: "1",
      q: "Carrera 43A, Medellín",
      countrycodes: "co",
      limit: "1",
    });
    expect(response.body.location).toEqual({
      latitud: 6.2443382,
      longitud: -75.573553,
      direccion: "Carrera 43A, Medellín",
      ciudad: "Medellín",
      departamento: "Antioquia",
      pais: "Colombia",
    });
  });

  it("reverse-geocodes through its reverse endpoint", async () => {
    mode = "ok";
    const response = await app.legacy("GET", "/map/reverse_geocode.php", { lat: "6.21", lng: "-75.57" });
    expect(stub.requests.at(-1)).toBe("/reverse?format=jsonv2&addressdetails=1&lat=6.21&lon=-75.57");
    expect(response.body.location).toMatchObject({
      direccion: "Carrera 43A, El Poblado, Medellín, Antioquia, Colombia",
      ciudad: "Medellín",
    });
  });

  it.each(["slow", "error", "empty"] as const)("uses the gazetteer when the server is %s", async (failure) => {
    mode = failure;
    const geocoded = await app.legacy("GET", "/map/geocode.php", { address: "Calle 5, Envigado" });
    expect(geocoded.body.location).toMatchObject({ ciudad: "Envigado", latitud: 6.17591 });
    const reversed = await app.legacy("GET", "/map/reverse_geocode.php", { lat: "3.45", lng: "-76.53" });
    expect(reversed.body.location).toMatchObject({ ciudad: "Cali" });
    expect((await app.legacy("GET", "/map/geocode.php", { address: "Calle falsa 123" })).status).toBe(404);
  });
});
