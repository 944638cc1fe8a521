import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SPEEDS } from "../../src/domain/maps/speed.js";
import { hourOfWeek } from "../../src/domain/time.js";
import { createTestApp, type TestApp } from "../support/app.js";
import { FixedClock } from "../support/clock.js";

let app: TestApp;
// Tuesday 07:30 in Bogotá: peak hour.
const clock = new FixedClock("2026-03-10T12:30:00Z");
beforeAll(async () => {
  app = await createTestApp({ clock });
});
afterAll(() => app.close());

const LLERAS = { latitud: 6.2086, longitud: -75.5659, direccion: "Parque Lleras" };
const ESTADIO = { latitud: 6.2568, longitud: -75.5904 };

const expectFailure = (response: { status: number; body: any }, status: number, message: string) => {
  expect(response.status).toBe(status);
  expect(response.body).toEqual({ success: false, message });
};

describe("POST /map/calculate_route.php", () => {
  it("returns the route of spec 2.8", async () => {
    const response = await app.legacy("POST", "/map/calculate_route.php", { origin: LLERAS, destination: ESTADIO });
    expect(response.status).toBe(200);
    const { route } = response.body;
    expect(Object.keys(route).sort()).toEqual(["destino", "distancia_km", "duracion_minutos", "instrucciones", "origen", "puntos"]);
    expect(route.origen).toEqual(LLERAS);
    expect(route.destino).toEqual({ ...ESTADIO, direccion: null });
    expect(route.distancia_km).toBeGreaterThan(6);
    expect(route.distancia_km).toBeLessThan(8);
    expect(route.duracion_minutos).toBe(Math.ceil((route.distancia_km / SPEEDS.peak) * 60));
    expect(route.puntos[0]).toEqual({ latitud: LLERAS.latitud, longitud: LLERAS.longitud });
    expect(route.puntos.at(-1)).toEqual(ESTADIO);
    expect(route.instrucciones).toMatch(/^Dirígete hacia el/);
  });

  it("is faster at night", async () => {
    clock.set("2026-03-11T04:00:00Z"); // 23:00
    const night = (await app.legacy("POST", "/map/calculate_route.php", { origin: LLERAS, destination: ESTADIO })).body.route;
    expect(night.duracion_minutos).toBe(Math.ceil((night.distancia_km / SPEEDS.night) * 60));
    clock.set("2026-03-10T12:30:00Z");
  });

  it("learns from the platform's completed trips in the same hour of the week", async () => {
    const before = (await app.legacy("POST", "/map/calculate_route.php", { origin: LLERAS, destination: ESTADIO })).body.route;
    const trip = (hora_semana: number) => ({
      tipo_servicio: "auto",
      estado: "completado",
      hora_semana,
      velocidad_real_kmh: 40,
      origen_direccion: "a",
      origen_latitud: 6.2,
      origen_longitud: -75.5,
      destino_direccion: "b",
      destino_latitud: 6.3,
      destino_longitud: -75.6,
      precio_estimado: 10000,
      distancia_km: 5,
      duracion_estimada_minutos: 10,
    });
    const now = hourOfWeek(clock.now());
    // Trips of other hours do not count.
    await app.db.trip.createMany({ data: Array.from({ length: 50 }, () => trip((now + 1) % 168)) });
    const unaffected = (await app.legacy("POST", "/map/calculate_route.php", { origin: LLERAS, destination: ESTADIO })).body.route;
    expect(unaffected.duracion_minutos).toBe(before.duracion_minutos);

    await app.db.trip.createMany({ data: Array.from({ length: 90 }, () => trip(now)) });
    const after = (await app.legacy("POST", "/map/calculate_route.php", { origin: LLERAS, destination: ESTADIO })).body.route;
    // 90 trips at 40 km/h against the 14 km/h model with a prior of 30: (90·40 + 30·14) / 120 = 33.5 km/h.
    expect(after.duracion_minutos).toBe(Math.ceil((after.distancia_km / 33.5) * 60));
    expect(after.duracion_minutos).toBeLessThan(before.duracion_minutos);
    await app.db.trip.deleteMany({});
  });

  it.each([
    [{ destination: ESTADIO }, 400, "El campo 'origin' es obligatorio"],
    [{ origin: LLERAS }, 400, "El campo 'destination' es obligatorio"],
    [{ origin: "Parque Lleras", destination: ESTADIO }, 400, "El campo 'origin' debe ser un objeto con latitud y longitud"],
    [{ origin: { longitud: -75.5 }, destination: ESTADIO }, 400, "El campo 'origin.latitud' es obligatorio"],
    [{ origin: { latitud: "norte", longitud: -75.5 }, destination: ESTADIO }, 400, "El campo 'origin.latitud' debe ser un número"],
    [{ origin: LLERAS, destination: { latitud: 6.2, longitud: -181 } }, 400, "El campo 'destination.longitud' debe estar entre -180 y 180"],
    [{ origin: { latitud: 90.5, longitud: 0 }, destination: ESTADIO }, 400, "El campo 'origin.latitud' debe estar entre -90 y 90"],
  ])("answers %j with %i", async (body, status, message) => {
    expectFailure(await app.legacy("POST", "/map/calculate_route.php", body), status, message);
  });
});

describe("POST /map/calculate_distance.php", () => {
  it("returns the distance in kilometres, the same as the route's", async () => {
    const response = await app.legacy("POST", "/map/calculate_distance.php", { origin: LLERAS, destination: ESTADIO });
    const route = await app.legacy("POST", "/map/calculate_route.php", { origin: LLERAS, destination: ESTADIO });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, distance: route.body.route.distancia_km });
  });

  it("accepts coordinates sent as text and refuses bad ones", async () => {
    const ok = await app.legacy("POST", "/map/calculate_distance.php", {
      origin: { latitud: "6.2086", longitud: "-75.5659" },
      destination: { latitud: "6.2568", longitud: "-75.5904" },
    });
    expect(ok.status).toBe(200);
    expectFailure(
      await app.legacy("POST", "/map/calculate_distance.php", { origin: LLERAS, destination: { latitud: 6.2 } }),
      400,
      "El campo 'destination.longitud' es obligatorio",
    );
  });
});

describe("GET /map/geocode.php and /map/reverse_geocode.php", () => {
  it("resolves an address to a location", async () => {
    const response = await app.legacy("GET", "/map/geocode.php", { address: "Calle 10 # 43-12, Medellín" });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      success: true,
      location: {
        latitud: 6.25184,
        longitud: -75.56359,
        direccion: "Calle 10 # 43-12, Medellín",
        ciudad: "Medellín",
        departamento: "Antioquia",
        pais: "Colombia",
      },
    });
  });

  it("answers 404 for an address that cannot be resolved and 400 for an empty one", async () => {
    expectFailure(
      await app.legacy("GET", "/map/geocode.php", { address: "Calle falsa 123" }),
      404,
      "No se encontró la dirección 'Calle falsa 123'",
    );
    expectFailure(await app.legacy("GET", "/map/geocode.php", { address: "   " }), 400, "El campo 'address' no puede estar vacío");
    expectFailure(await app.legacy("GET", "/map/geocode.php"), 400, "El campo 'address' es obligatorio");
  });

  it("resolves a point to the nearest place", async () => {
    const response = await app.legacy("GET", "/map/reverse_geocode.php", { lat: "3.4516", lng: "-76.532" });
    expect(response.status).toBe(200);
    expect(response.body.location).toEqual({
      latitud: 3.4516,
      longitud: -76.532,
      direccion: "Cerca de Cali, Valle del Cauca",
      ciudad: "Cali",
      departamento: "Valle del Cauca",
      pais: "Colombia",
    });
  });

  it.each([
    [{ lat: "40.4168", lng: "-3.7038" }, 404, "No se encontró ningún lugar cerca de 40.4168, -3.7038"],
    [{ lng: "-75.5" }, 400, "El campo 'lat' es obligatorio"],
    [{ lat: "6.2", lng: "oeste" }, 400, "El campo 'lng' debe ser un número"],
    [{ lat: "-91", lng: "-75.5" }, 400, "El campo 'lat' debe estar entre -90 y 90"],
    [{ lat: "6.2", lng: "200" }, 400, "El campo 'lng' debe estar entre -180 y 180"],
  ])("reverse answers %j with %i", async (query, status, message) => {
    expectFailure(await app.legacy("GET", "/map/reverse_geocode.php", query), status, message);
  });
});

describe("maps over GraphQL", () => {
  it("answers the four queries, with typed errors", async () => {
    const { data } = await app.graphql(
      `query ($o: LugarInput!, $d: LugarInput!) {
        route(origin: $o, destination: $d) { ... on Ruta { distancia_km duracion_minutos puntos { latitud } } }
        distance(origin: $o, destination: $d) { ... on QueryDistanceSuccess { data } }
        geocode(address: "medellin") { ... on Ubicacion { ciudad } }
        reverseGeocode(lat: 6.25, lng: -75.56) { ... on Ubicacion { ciudad } }
        nowhere: geocode(address: "Calle falsa 123") { __typename ... on Error { code message } }
        badPoint: reverseGeocode(lat: 100, lng: 0) { __typename ... on ValidationError { field reason } }
      }`,
      { o: LLERAS, d: ESTADIO },
    );
    expect(data.route.distancia_km).toBe(data.distance.data);
    expect(data.route.puntos.length).toBeGreaterThan(2);
    expect(data.geocode).toEqual({ ciudad: "Medellín" });
    expect(data.reverseGeocode).toEqual({ ciudad: "Medellín" });
    expect(data.nowhere).toEqual({
      __typename: "NotFoundError",
      code: "NOT_FOUND",
      message: "No se encontró la dirección 'Calle falsa 123'",
    });
    expect(data.badPoint).toEqual({ __typename: "ValidationError", field: "lat", reason: "debe estar entre -90 y 90" });
  });
});
