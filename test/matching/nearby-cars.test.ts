import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { greatCircleKm, type Point } from "../../src/domain/geo.js";
import { schema } from "../../src/graphql/schema.js";
import { createTestApp, type TestApp } from "../support/app.js";
import { FixedClock } from "../support/clock.js";
import { post } from "../support/fixtures.js";
import { LLERAS, createDriver, createPassenger, northOf } from "../support/trips.js";

// The deployed app's files named here (lib/src/…) are in https://github.com/Braian551/pingo/tree/35be6b2751ba54667ec1437fc46cd3a8ee79fd51.

let app: TestApp;
const clock = new FixedClock("2026-03-10T15:00:00Z");
beforeAll(async () => {
  app = await createTestApp({ clock });
});
afterAll(() => app.close());

/** Somewhere nobody else in this file works, so each test finds only the cars it put there. */
let area = 0;
const nextArea = () => northOf(LLERAS, 25 * ++area);
const eastOf = (from: Point, km: number) => ({
  latitud: from.latitud,
  longitud: from.longitud + km / (((2 * Math.PI * 6371.0088) / 360) * Math.cos((from.latitud * Math.PI) / 180)),
});

/** TripRequestService.findNearbyDrivers's body (lib/src/features/user/services/trip_request_service.dart:83-115). */
async function nearby(at: Point, tipo_vehiculo = "moto", radio_km: number | undefined = 5.0) {
  const response = await post(app, "/user/find_nearby_drivers.php", {
    latitud: at.latitud,
    longitud: at.longitud,
    tipo_vehiculo,
    radio_km,
  });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  expect(response.body.total).toBe(response.body.conductores.length);
  return response.body.conductores as Array<{ vehiculo_tipo: string; latitud: number; longitud: number; distancia_km: number }>;
}

const locate = (conductorId: number, at: Point) => post(app, "/conductor/update_location.php", { conductor_id: conductorId, ...at });
/** The 0.003° grid: a coordinate is a cell's centre when it sits half a cell past a multiple of 0.003. */
const isCellCentre = (degrees: number) => Math.abs((((Math.round(degrees * 1e4) % 30) + 30) % 30) - 15) === 0;

describe("the cars near a point", () => {
  it("are a vehicle type and an approximate position, never who drives them", async () => {
    const here = nextArea();
    const driver = await createDriver(app, { tipo: "moto", at: eastOf(here, 0.8) });
    const cars = await nearby(here);
    expect(cars).toHaveLength(1);
    const [car] = cars;
    expect(Object.keys(car!).sort()).toEqual(["distancia_km", "latitud", "longitud", "vehiculo_tipo"]);
    expect(car!.vehiculo_tipo).toBe("motocicleta");
    const user = await app.db.user.findUniqueOrThrow({ where: { id: driver.id } });
    const vehicle = await app.db.vehicle.findUniqueOrThrow({ where: { conductor_id: driver.id } });
    const text = JSON.stringify(cars);
    for (const secret of [user.nombre, user.apellido, user.telefono, user.email, vehicle.placa!]) expect(text).not.toContain(secret);
    // GraphQL has nothing more to give: the type holds only these fields.
    const fields = Object.keys((schema.getType("VehiculoCercano") as { getFields(): object }).getFields());
    expect(fields.sort()).toEqual(["distancia_km", "latitud", "longitud", "tipo_vehiculo"]);
  });

  it("shows positions snapped to a grid of about 330 m, the same from wherever one asks", async () => {
    const here = nextArea();
    // Two drivers 30 m apart, away from the centre of their cell.
    const cellStart = Math.floor(here.latitud / 0.003) * 0.003;
    const first = { latitud: cellStart + 0.0004, longitud: Math.floor(here.longitud / 0.003) * 0.003 + 0.0004 };
    const second = { ...first, latitud: first.latitud + 0.00027 };
    await createDriver(app, { tipo: "moto", at: first });
    await createDriver(app, { tipo: "moto", at: second });
    const cars = await nearby(eastOf(first, 1));
    expect(cars).toHaveLength(2);
    expect(cars[0]).toEqual(cars[1]);
    const shown = { latitud: cars[0]!.latitud, longitud: cars[0]!.longitud };
    expect(isCellCentre(shown.latitud) && isCellCentre(shown.longitud)).toBe(true);
    expect(Math.abs(shown.latitud - first.latitud)).toBeLessThanOrEqual(0.0015);
    expect(Math.abs(shown.longitud - first.longitud)).toBeLessThanOrEqual(0.0015);
    expect(shown).not.toEqual(first);
    // From elsewhere, the same cell.
    const fromSouth = await nearby(northOf(first, -2));
    expect(fromSouth.map(({ latitud, longitud }) => ({ latitud, longitud }))).toEqual([shown, shown]);
    // The distance is to the approximate position, to the nearest 100 m.
    const asker = eastOf(first, 1);
    expect(cars[0]!.distancia_km).toBe(Math.round(greatCircleKm(asker, shown) * 10) / 10);
  });

  it("decides who is in reach by the approximate position, so moving the point cannot find the exact one", async () => {
    const here = nextArea();
    // A driver high in a cell: 1.05 km north of the asker, shown about 0.11 km nearer.
    const exact = {
      latitud: Math.floor(here.latitud / 0.003) * 0.003 + 0.0025,
      longitud: Math.floor(here.longitud / 0.003) * 0.003 + 0.0015,
    };
    await createDriver(app, { tipo: "moto", at: exact });
    const asker = northOf(exact, -1.05);
    const cars = await nearby(asker, "moto", 1.0);
    expect(cars.map((car) => car.distancia_km)).toEqual([0.9]);
    // Within 1 km of the exact position but farther from the approximate one: not in reach.
    expect(await nearby(northOf(exact, 0.95), "moto", 1.0)).toEqual([]);
  });

  it("are only drivers who could take the trip: online, free, the right vehicle, documents in force, a fresh position", async () => {
    const here = nextArea();
    const at = eastOf(here, 1);
    const offline = await createDriver(app, { tipo: "moto", at, online: false });
    const car = await createDriver(app, { tipo: "auto", at });
    expect(await nearby(here)).toEqual([]);
    expect(await nearby(here, "carro")).toHaveLength(1);
    expect(await nearby(here, "auto")).toHaveLength(1);

    // Online, then documents out of force: out of matching at once.
    const moto = await createDriver(app, { tipo: "moto", at });
    expect(await nearby(here, "motocicleta")).toHaveLength(1);
    const expired = await app.graphql(`mutation { updateVehicle(input: { soat_vencimiento: "2026-03-01" }) { __typename } }`, {}, moto.id);
    expect(expired.data.updateVehicle.__typename).toBe("Vehiculo");
    expect(await nearby(here)).toEqual([]);

    // Busy with a trip.
    const passenger = await createPassenger(app);
    const trip = await post(app, "/viajes/create_trip.php", {
      usuario_id: passenger.id,
      tipo_servicio: "auto",
      origen: { ...here, direccion: "Origen" },
      destino: { ...northOf(here, 3), direccion: "Destino" },
    });
    expect(trip.status, JSON.stringify(trip.body)).toBe(200);
    expect((await post(app, "/viajes/accept_trip.php", { trip_id: trip.body.trip.id, conductor_id: car.id })).status).toBe(200);
    expect(await nearby(here, "auto")).toEqual([]);

    // A position older than a minute says nothing of where the driver is.
    expect((await post(app, "/conductor/actualizar_disponibilidad.php", { conductor_id: offline.id, disponible: 1 })).status).toBe(200);
    expect((await locate(offline.id, at)).status).toBe(200);
    expect(await nearby(here)).toHaveLength(1);
    clock.advance(61_000);
    expect(await nearby(here)).toEqual([]);
    expect((await locate(offline.id, at)).status).toBe(200);
    expect(await nearby(here)).toHaveLength(1);
  });

  it("reach 5 km at most, whatever radius is asked, and a smaller radius when asked", async () => {
    const here = nextArea();
    await createDriver(app, { tipo: "moto", at: northOf(here, 2) });
    await createDriver(app, { tipo: "moto", at: northOf(here, 6) });
    expect(await nearby(here, "moto", 50)).toHaveLength(1);
    expect(await nearby(here, "moto", undefined)).toHaveLength(1);
    expect(await nearby(here, "moto", 1.5)).toEqual([]);
  });

  it("are 10 at most, nearest first", async () => {
    const here = nextArea();
    const { presence } = app.server.deps.matching;
    // Drivers another process announced: the same presence every process keeps.
    const ids = Array.from({ length: 12 }, (_, i) => 900_000 + area * 100 + i);
    for (const [i, id] of ids.entries()) {
      presence.decide(id, {
        conductor_id: id,
        tipo_vehiculo: "mototaxi",
        apto_hasta: new Date(clock.now().getTime() + 86_400_000),
        disponible: true,
        viaje_activo_id: null,
        posicion: { ...northOf(here, 0.35 * (i + 1)), at: clock.now() },
      });
    }
    try {
      const cars = await nearby(here, "mototaxi");
      expect(cars).toHaveLength(10);
      const distances = cars.map((car) => car.distancia_km);
      expect(distances).toEqual([...distances].sort((a, b) => a - b));
      expect(distances.at(-1)).toBeLessThan(3.7);
    } finally {
      for (const id of ids) presence.decide(id, null);
    }
  });

  it("answer the other screen's GET under drivers, and refuse a service that does not exist", async () => {
    const here = nextArea();
    await createDriver(app, { tipo: "auto", at: eastOf(here, 1) });
    // TripRemoteDataSourceImpl.findNearbyDrivers (lib/src/features/trips/data/datasources/trip_remote_datasource.dart:366-394).
    const path = `/viajes/find_nearby_drivers.php?latitud=${here.latitud}&longitud=${here.longitud}&tipo=auto&radius=5.0`;
    const response = await app.legacy("GET", path, undefined, { "content-type": "application/json" });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body.drivers).toEqual([expect.objectContaining({ vehiculo_tipo: "carro" })]);
    expect(response.body.total).toBe(1);

    const delivery = await app.legacy("GET", path.replace("tipo=auto", "tipo=delivery"));
    expect(delivery.status).toBe(400);
    expect(delivery.body.message).toBe("El campo 'tipo' debe ser uno de: moto, auto, mototaxi");
  });

  it("refuse a bad point, type or radius, naming the field", async () => {
    const bad = async (body: Record<string, unknown>) => (await post(app, "/user/find_nearby_drivers.php", body)).body.message;
    expect(await bad({ latitud: 95, longitud: -75.5, tipo_vehiculo: "moto" })).toBe("El campo 'latitud' debe estar entre -90 y 90");
    expect(await bad({ latitud: 6.2, longitud: -75.5 })).toBe("El campo 'tipo_vehiculo' es obligatorio");
    expect(await bad({ latitud: 6.2, longitud: -75.5, tipo_vehiculo: "moto", radio_km: 0 })).toBe(
      "El campo 'radio_km' debe ser mayor que 0",
    );
  });

  it("need nobody signed in, on GraphQL and with LEGACY_AUTH=token", async () => {
    const here = nextArea();
    await createDriver(app, { tipo: "moto", at: eastOf(here, 1) });
    const { status, data } = await app.graphql(
      `query ($lat: Float!, $lng: Float!) {
        nearbyDrivers(latitud: $lat, longitud: $lng, tipo_vehiculo: moto) {
          ... on QueryNearbyDriversSuccess { data { tipo_vehiculo distancia_km } }
        }
      }`,
      { lat: here.latitud, lng: here.longitud },
    );
    expect(status).toBe(200);
    expect(data.nearbyDrivers.data).toEqual([{ tipo_vehiculo: "moto", distancia_km: expect.any(Number) }]);

    const tokens = await createTestApp({ env: { LEGACY_AUTH: "token" } });
    try {
      const response = await tokens.legacy("POST", "/user/find_nearby_drivers.php", { ...here, tipo_vehiculo: "moto", radio_km: 5 });
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      expect(response.body).toEqual({ success: true, total: 0, conductores: [] });
    } finally {
      await tokens.close();
    }
  });
});
