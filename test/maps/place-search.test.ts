import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { greatCircleKm } from "../../src/domain/geo.js";
import { createTestApp, type TestApp } from "../support/app.js";
import { sendJson, startStub, type StubServer } from "../support/stub-server.js";

// The deployed app's files named here (lib/src/…) are in https://github.com/Braian551/pingo/tree/35be6b2751ba54667ec1437fc46cd3a8ee79fd51.

const MEDELLIN = { lat: 6.2086, lng: -75.5659 };
const BOGOTA = { lat: 4.6097, lng: -74.0817 };

type Place = {
  latitud: number;
  longitud: number;
  direccion: string;
  ciudad: string | null;
  departamento: string | null;
  distancia_km: number;
};

/** MapRemoteDataSourceImpl.searchNearbyPlaces (lib/src/features/maps/data/datasources/map_remote_datasource.dart:137-166). */
const searchPath = (from: { lat: number; lng: number }, query: string, radius = "1.0") =>
  `/map/search_places.php?lat=${from.lat}&lng=${from.lng}&query=${encodeURIComponent(query)}&radius=${radius}`;

async function search(app: TestApp, from: { lat: number; lng: number }, query: string, extra = "") {
  const response = await app.legacy("GET", searchPath(from, query) + extra, undefined, { "content-type": "application/json" });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.places as Place[];
}

const expectNearestFirst = (places: Place[], from: { lat: number; lng: number }) => {
  const distances = places.map((place) => greatCircleKm({ latitud: from.lat, longitud: from.lng }, place));
  expect(distances).toEqual([...distances].sort((a, b) => a - b));
  expect(places.map((place) => place.distancia_km)).toEqual(distances.map((km) => Math.round(km * 100) / 100));
};

describe("with the offline gazetteer", () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(() => app.close());

  it("finds the municipalities named by the search, nearest to the caller first, 10 at most", async () => {
    const fromMedellin = await search(app, MEDELLIN, "san");
    expect(fromMedellin).toHaveLength(10);
    expectNearestFirst(fromMedellin, MEDELLIN);
    for (const place of fromMedellin) expect(place.ciudad!.toLowerCase()).toMatch(/(^|\s)san/);
    expect(fromMedellin[0]!.departamento).toBe("Antioquia");
    expect(Object.keys(fromMedellin[0]!).sort()).toEqual([
      "ciudad",
      "departamento",
      "direccion",
      "distancia_km",
      "latitud",
      "longitud",
      "pais",
    ]);
    expect(fromMedellin[0]!.direccion).toBe(`${fromMedellin[0]!.ciudad}, Antioquia`);

    const fromBogota = await search(app, BOGOTA, "san");
    expectNearestFirst(fromBogota, BOGOTA);
    // Bogotá itself is "Santa Fe de Bogotá" too.
    expect(["Bogotá D.C.", "Cundinamarca"]).toContain(fromBogota[0]!.departamento);
    expect(fromBogota[0]!.distancia_km).toBeLessThan(40);
  });

  it("ignores accents and case, and reads a whole address by its town", async () => {
    for (const query of ["MEDELLIN", "medellín", "Medellin"]) expect((await search(app, BOGOTA, query))[0]!.ciudad).toBe("Medellín");
    const address = await search(app, MEDELLIN, "Calle 10 # 43-12, Envigado");
    expect(address).toEqual([expect.objectContaining({ ciudad: "Envigado", direccion: "Calle 10 # 43-12, Envigado", pais: "Colombia" })]);
  });

  it("answers as many as asked, and nothing when nothing matches", async () => {
    expect(await search(app, MEDELLIN, "san", "&limit=3")).toHaveLength(3);
    expect(await search(app, MEDELLIN, "qwxz")).toEqual([]);
  });

  it.each([
    [searchPath(MEDELLIN, "a"), "El campo 'query' debe tener al menos 2 letras o números"],
    [searchPath(MEDELLIN, "#-"), "El campo 'query' debe tener al menos 2 letras o números"],
    [searchPath(MEDELLIN, "x".repeat(201)), "El campo 'query' admite como máximo 200 caracteres"],
    [`/map/search_places.php?lat=6.2&lng=-75.5`, "El campo 'query' es obligatorio"],
    [searchPath({ lat: 95, lng: -75.5 }, "Envigado"), "El campo 'lat' debe estar entre -90 y 90"],
    [searchPath(MEDELLIN, "Envigado", "-1.0"), "El campo 'radius' debe ser mayor que 0"],
    [`${searchPath(MEDELLIN, "Envigado")}&limit=50`, "El campo 'limit' debe estar entre 1 y 20"],
  ])("refuses %s", async (path, message) => {
    const response = await app.legacy("GET", path);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ success: false, message });
  });

  it("is the public GraphQL query searchPlaces", async () => {
    const { status, data } = await app.graphql(
      `query { searchPlaces(query: "envigado", lat: 6.2086, lng: -75.5659, limit: 1) {
        ... on QuerySearchPlacesSuccess { data { ciudad departamento distancia_km } }
      } }`,
    );
    expect(status).toBe(200);
    expect(data.searchPlaces.data).toEqual([{ ciudad: "Envigado", departamento: "Antioquia", distancia_km: expect.any(Number) }]);
  });
});

describe("with a Nominatim server", () => {
  /** Nominatim /search answers (jsonv2), most important first: the far one leads. */
  const place = (name: string, lat: string, lon: string, city: string) => ({
    place_id: Number(lat.replace(".", "").slice(0, 8)),
    lat,
    lon,
    category: "leisure",
    type: "park",
    importance: 0.4,
    name,
    display_name: `${name}, ${city}, Antioquia, Colombia`,
    address: { leisure: name, city, state: "Antioquia", country: "Colombia", country_code: "co" },
  });
  const FOUND = [place("Parque Principal", "6.1551", "-75.3739", "Rionegro"), place("Parque Lleras", "6.2087", "-75.5675", "Medellín")];

  let mode: "ok" | "empty" | "error" = "ok";
  let stub: StubServer;
  let app: TestApp;
  beforeAll(async () => {
    stub = await startStub((request, response) => {
      const url = new URL(request.url ?? "/", "http://stub");
      if (mode === "error") return sendJson(response, 503, { message: "overloaded" });
      if (url.pathname === "/search") return sendJson(response, 200, mode === "empty" ? [] : FOUND);
      sendJson(response, 404, {});
    });
    // Public calls need no token even where every other legacy call does.
    app = await createTestApp({ env: { NOMINATIM_URL: stub.url, MAPS_TIMEOUT_MS: "500", LEGACY_AUTH: "token" } });
  });
  afterAll(async () => {
    await app.close();
    await stub.close();
  });

  it("searches near the caller and ranks what it finds by distance", async () => {
    mode = "ok";
    const places = await search(app, MEDELLIN, "parque");
    const asked = new URL(stub.requests.at(-1)!, "http://stub");
    expect(asked.pathname).toBe("/search");
    const params = Object.fromEntries(asked.searchParams);
    expect(params).toMatchObject({ q: "parque", countrycodes: "co", limit: "10", bounded: "0", format: "jsonv2" });
    // The box the app's radius of 1.0 km draws around the caller: west, north, east, south.
    const [west, north, east, south] = params.viewbox!.split(",").map(Number);
    expect(west).toBeLessThan(MEDELLIN.lng);
    expect(east).toBeGreaterThan(MEDELLIN.lng);
    expect(north! - MEDELLIN.lat).toBeCloseTo(1 / 111.195, 4);
    expect(MEDELLIN.lat - south!).toBeCloseTo(1 / 111.195, 4);
    expect(places.map((p) => p.ciudad)).toEqual(["Medellín", "Rionegro"]);
    expect(places[0]).toMatchObject({ direccion: "Parque Lleras, Medellín, Antioquia, Colombia", latitud: 6.2087, longitud: -75.5675 });
    expectNearestFirst(places, MEDELLIN);
  });

  it.each(["empty", "error"] as const)("falls back to the gazetteer when the server answers %s", async (failure) => {
    mode = failure;
    const places = await search(app, MEDELLIN, "envigado");
    expect(places[0]).toMatchObject({ ciudad: "Envigado", direccion: "Envigado, Antioquia" });
  });
});
