import { describe, expect, it } from "vitest";
import { greatCircleKm } from "../../src/domain/maps/geo.js";
import { DriverGeoIndex, type IndexedDriver, type NearbyQuery } from "../../src/domain/matching/geo-index.js";
import { VEHICLE_TYPES } from "../../src/domain/trips/service-types.js";

const CENTER = { latitud: 6.2442, longitud: -75.5812 };
const NOW = new Date("2026-03-10T15:00:00Z");
const ago = (seconds: number) => new Date(NOW.getTime() - seconds * 1000);
const YEAR_ON = new Date(NOW.getTime() + 365 * 24 * 3600 * 1000);
/** A point `km` north of the centre. */
const north = (km: number) => ({ latitud: CENTER.latitud + km / ((2 * Math.PI * 6371.0088) / 360), longitud: CENTER.longitud });
const driver = (conductor_id: number, point: { latitud: number; longitud: number }, extra: Partial<IndexedDriver> = {}): IndexedDriver => ({
  conductor_id, ...point, tipo_vehiculo: "auto", apto_hasta: YEAR_ON, at: NOW, ...extra,
});
const cars: NearbyQuery = { tipo_vehiculo: "auto", now: NOW, freshSince: ago(60), radiusKm: 5 };
const ids = (found: Array<{ conductor_id: number }>) => found.map((d) => d.conductor_id);

/** A deterministic spread of drivers over a square around the centre, 40 × 40 km by default. */
function city(count: number, spreadDegrees = 0.36): IndexedDriver[] {
  let seed = 42;
  const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  return Array.from({ length: count }, (_, i) => driver(i + 1, {
    latitud: CENTER.latitud + (random() - 0.5) * spreadDegrees,
    longitud: CENTER.longitud + (random() - 0.5) * spreadDegrees,
  }, { tipo_vehiculo: VEHICLE_TYPES[i % VEHICLE_TYPES.length]!, at: ago(random() * 90), apto_hasta: random() < 0.05 ? ago(1) : YEAR_ON }));
}

describe("the driver geo index", () => {
  it("finds drivers up to the radius and not beyond", () => {
    const index = new DriverGeoIndex();
    index.set(driver(1, north(4.99)));
    index.set(driver(2, north(5.01)));
    expect(greatCircleKm(CENTER, north(4.99))).toBeLessThan(5);
    expect(ids(index.nearest(CENTER, { ...cars, limit: 10 }))).toEqual([1]);
    expect(index.count(CENTER, cars)).toBe(1);
  });

  it("finds the nearest in every direction, across cell borders, nearest first", () => {
    const index = new DriverGeoIndex();
    const points = [
      { latitud: CENTER.latitud + 0.03, longitud: CENTER.longitud },
      { latitud: CENTER.latitud - 0.04, longitud: CENTER.longitud + 0.001 },
      { latitud: CENTER.latitud, longitud: CENTER.longitud + 0.02 },
      { latitud: CENTER.latitud + 0.001, longitud: CENTER.longitud - 0.044 },
      { latitud: CENTER.latitud + 0.0001, longitud: CENTER.longitud },
    ];
    points.forEach((point, i) => index.set(driver(i + 1, point)));
    const found = index.nearest(CENTER, { ...cars, limit: 10 });
    expect(ids(found)).toEqual([5, 3, 1, 2, 4]);
    expect(ids(index.nearest(CENTER, { ...cars, limit: 2 }))).toEqual([5, 3]);
    expect(found[0]!.distanceKm).toBeCloseTo(greatCircleKm(CENTER, points[4]!), 9);
  });

  it.each([
    ["spread over a city, few to a street", 0.36],
    ["packed into a few blocks", 0.03],
  ])("gives the same nearest drivers as checking every driver, for every vehicle type: drivers %s", (_, spread) => {
    const drivers = city(20_000, spread);
    const index = new DriverGeoIndex();
    for (const d of drivers) index.set(d);
    const centres = [CENTER, north(3), { latitud: CENTER.latitud - 0.1, longitud: CENTER.longitud + 0.12 }, north(30)];
    for (const centre of centres) {
      for (const tipo_vehiculo of VEHICLE_TYPES) {
        const query = { ...cars, tipo_vehiculo };
        const expected = drivers
          .filter((d) => d.tipo_vehiculo === tipo_vehiculo && d.apto_hasta > NOW && d.at >= query.freshSince)
          .map((d) => ({ conductor_id: d.conductor_id, distanceKm: greatCircleKm(centre, d) }))
          .filter((d) => d.distanceKm <= 5)
          .sort((a, b) => a.distanceKm - b.distanceKm);
        expect(ids(index.nearest(centre, { ...query, limit: 10 }))).toEqual(ids(expected.slice(0, 10)));
        expect(index.count(centre, query)).toBe(expected.length);
      }
    }
  });

  it("leaves out stale positions, expired documents, other vehicles and the drivers excluded", () => {
    const index = new DriverGeoIndex();
    index.set(driver(1, CENTER, { at: ago(61) }));
    index.set(driver(2, CENTER, { at: ago(59) }));
    index.set(driver(3, CENTER, { apto_hasta: NOW }));
    index.set(driver(4, CENTER, { tipo_vehiculo: "moto" }));
    index.set(driver(5, north(1)));
    expect(ids(index.nearest(CENTER, { ...cars, limit: 10 }))).toEqual([2, 5]);
    expect(ids(index.nearest(CENTER, { ...cars, limit: 1, exclude: new Set([2]) }))).toEqual([5]);
    expect(ids(index.nearest(CENTER, { ...cars, tipo_vehiculo: "moto", limit: 10 }))).toEqual([4]);
    expect(index.count(CENTER, cars)).toBe(2);
  });

  it("moves drivers who move, changes their vehicle, and drops drivers removed", () => {
    const index = new DriverGeoIndex();
    const bogota = { latitud: 4.711, longitud: -74.0721 };
    index.set(driver(1, CENTER));
    index.set(driver(1, bogota));
    expect(index.nearest(CENTER, { ...cars, limit: 10 })).toEqual([]);
    expect(ids(index.nearest(bogota, { ...cars, limit: 10 }))).toEqual([1]);
    index.set(driver(1, bogota, { tipo_vehiculo: "moto" }));
    expect(index.nearest(bogota, { ...cars, limit: 10 })).toEqual([]);
    index.remove(1);
    expect(index.size).toBe(0);
    expect(index.nearest(bogota, { ...cars, tipo_vehiculo: "moto", limit: 10 })).toEqual([]);
  });
});
