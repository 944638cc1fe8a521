import { afterAll, bench, describe } from "vitest";
import { greatCircleKm } from "../src/domain/maps/geo.js";
import { MATCH_RADIUS_KM, availableDriversNear } from "../src/domain/matching/eligibility.js";
import { createTestApp } from "../test/support/app.js";
import { createDriver, createPassenger, LLERAS, ESTADIO } from "../test/support/trips.js";

// Online drivers spread over a 40 × 40 km square around Medellín, as on a busy evening.
const DRIVERS = 3000;
const app = await createTestApp();
afterAll(() => app.close());
const now = app.server.deps.clock.now();
const since = new Date(now.getTime() - 60_000);

const users = Array.from({ length: DRIVERS }, (_, i) => ({
  email: `bench.${i}@example.com`, nombre: "B", apellido: "C", telefono: "3000000", password_hash: "x", tipo_usuario: "conductor",
}));
await app.db.user.createMany({ data: users });
const ids = (await app.db.user.findMany({ where: { email: { startsWith: "bench." } }, select: { id: true } })).map((u) => u.id);
const year = new Date(now.getTime() + 365 * 24 * 3600 * 1000);
await app.db.driverProfile.createMany({ data: ids.map((conductor_id) => ({ conductor_id, aprobado: true })) });
await app.db.license.createMany({ data: ids.map((conductor_id) => ({ conductor_id, fecha_expiracion: year })) });
await app.db.vehicle.createMany({
  data: ids.map((conductor_id, i) => ({ conductor_id, tipo: ["moto", "auto", "mototaxi"][i % 3], soat_vencimiento: year, tecnomecanica_vencimiento: year })),
});
const positions = ids.map((conductor_id) => ({
  conductor_id, disponible: true, posicion_en: now,
  latitud: 6.25 + (Math.random() - 0.5) * 0.36, longitud: -75.57 + (Math.random() - 0.5) * 0.36,
}));
await app.db.driverStatus.createMany({ data: positions });
for (const p of positions) app.server.deps.matching.index.update({ ...p, at: now });

const dLat = MATCH_RADIUS_KM / 111;
const dLng = MATCH_RADIUS_KM / (111 * Math.cos((LLERAS.latitud * Math.PI) / 180));

describe(`drivers within 5 km of a pickup, among ${DRIVERS} online`, () => {
  bench("in-process geo index", () => {
    app.server.deps.matching.index.nearby(LLERAS, MATCH_RADIUS_KM, since);
  });
  bench("database: bounding box on the indexed coordinates, then distance", async () => {
    const rows = await app.db.driverStatus.findMany({
      where: {
        disponible: true, posicion_en: { gte: since },
        latitud: { gte: LLERAS.latitud - dLat, lte: LLERAS.latitud + dLat },
        longitud: { gte: LLERAS.longitud - dLng, lte: LLERAS.longitud + dLng },
      },
    });
    rows.filter((r) => greatCircleKm(LLERAS, { latitud: r.latitud!, longitud: r.longitud! }) <= MATCH_RADIUS_KM);
  });
  bench("eligible drivers for a car trip (index, then the database confirms)", async () => {
    await availableDriversNear(app.server.deps, LLERAS, "auto");
  });
});

const driver = await createDriver(app);
const passenger = await createPassenger(app);
const created = await app.legacy("POST", "/viajes/create_trip.php", { usuario_id: passenger.id, tipo_servicio: "auto", origen: LLERAS, destino: ESTADIO });
const tripId = created.body.trip.id;
let step = 0;

describe("legacy calls, in-process on SQLite", () => {
  bench("POST /conductor/update_location.php", async () => {
    step++;
    await app.legacy("POST", "/conductor/update_location.php", { conductor_id: driver.id, latitud: 6.21 + step * 1e-7, longitud: -75.57 });
  });
  bench("GET /viajes/get_trip.php", async () => {
    await app.legacy("GET", "/viajes/get_trip.php", { trip_id: String(tripId) });
  });
  bench("POST /map/calculate_route.php", async () => {
    await app.legacy("POST", "/map/calculate_route.php", { origin: LLERAS, destination: ESTADIO });
  });
});
