import { describe, expect, it } from "vitest";
import { greatCircleKm } from "../../src/domain/geo.js";
import { DriverGeoIndex, type IndexedDriver, type NearbyQuery } from "../../src/domain/presence/geo-index.js";
import { VEHICLE_TYPES } from "../../src/domain/service-types.js";

const CENTER = { latitud: 6.2442, longitud: -75.5812 };
const NOW = new Date("2026-03-10T15:00:00Z");
const ago = (seconds: number) => new Date(NOW.getTime() - seconds * 1000);
const YEAR_ON = new Date(NOW.getTime() + 365 * 24 * 3600 * 1000);
/** A point `km` north of the centre. */
const north = (km: number) => ({ latitud: CENTER.latitud + km / ((2 * Math.PI * 6371.0088) / 360), longitud: CENTER.longitud });
const driver = (conductor_id: number, point: { latitud: number; longitud: number }, extra: Partial<IndexedDriver> = {}): IndexedDriver => ({
  conductor_id,
  ...point,
  tipo_vehiculo: "auto",
  apto_hasta: YEAR_ON,
  at: NOW,
  ...extra,
});
const cars: NearbyQuery = { tipo_vehiculo: "auto", now: NOW, freshSince: ago(60), radiusKm: 5 };
const ids = (expected: Array<{ conductor_id: number }>) => expected.map((d) => d.conductor_id);

/** A deterministic spread of drivers over a square around the centre, 40 × 40 km by default. */
function city(count: number, spreadDegrees = 0.36): IndexedDriver[] {
  let seed = 42;
  const random = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  return Array.from({ length: count }, (_, i) =>
    driver(
      i + 1,
      {
        latitud: CENTER.latitud + (random() - 0.5) * spreadDegrees,
        longitud: CENTER.longitud + (random() - 0.5) * spreadDegrees,
      },
      { tipo_vehiculo: VEHICLE_TYPES[i % VEHICLE_TYPES.length]!, at: ago(random() * 90), apto_hasta: random() < 0.05 ? ago(1) : YEAR_ON },
    ),
  );
}

describe("the driver geo index", () => {
  it("finds drivers up to the radius and not beyond", () => {
    const index = new DriverGeoIndex();
    index.set(driver(1, north(4.99)));
    index.set(driver(2, north(5.01)));
    expect(greatCircleKm(CENTER, north(4.99))).toBeLessThan(5);
    expect(index.nearest(CENTER, { ...cars, limit: 10 })).toEqual([1]);
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
    for (const [i, point] of points.entries()) index.set(driver(i + 1, point));
    expect(index.nearest(CENTER, { ...cars, limit: 10 })).toEqual([5, 3, 1, 2, 4]);
    expect(index.nearest(CENTER, { ...cars, limit: 2 })).toEqual([5, 3]);
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
        expect(index.nearest(centre, { ...query, limit: 10 })).toEqual(ids(expected.slice(0, 10)));
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
    expect(index.nearest(CENTER, { ...cars, limit: 10 })).toEqual([2, 5]);
    expect(index.nearest(CENTER, { ...cars, limit: 1, exclude: new Set([2]) })).toEqual([5]);
    expect(index.nearest(CENTER, { ...cars, tipo_vehiculo: "moto", limit: 10 })).toEqual([4]);
    expect(index.count(CENTER, cars)).toBe(2);
  });

  it("moves drivers who move, changes their vehicle, and drops drivers removed", () => {
    const index = new DriverGeoIndex();
    const bogota = { latitud: 4.711, longitud: -74.0721 };
    index.set(driver(1, CENTER));
    index.set(driver(1, bogota));
    expect(index.nearest(CENTER, { ...cars, limit: 10 })).toEqual([]);
    expect(index.nearest(bogota, { ...cars, limit: 10 })).toEqual([1]);
    index.set(driver(1, bogota, { tipo_vehiculo: "moto" }));
    expect(index.nearest(bogota, { ...cars, limit: 10 })).toEqual([]);
    index.remove(1);
    expect(index.size).toBe(0);
    expect(index.nearest(bogota, { ...cars, tipo_vehiculo: "moto", limit: 10 })).toEqual([]);
  });

  it("keeps a driver exactly at the radius and drops one a hair beyond, nearest and count alike", () => {
    const index = new DriverGeoIndex();
    const edge = { latitud: CENTER.latitud + 0.031, longitud: CENTER.longitud - 0.027 };
    index.set(driver(1, edge));
    const radiusKm = greatCircleKm(CENTER, edge);
    expect(index.nearest(CENTER, { ...cars, radiusKm, limit: 10 })).toEqual([1]);
    expect(index.count(CENTER, { ...cars, radiusKm })).toBe(1);
    const short = { ...cars, radiusKm: radiusKm * (1 - 1e-15) };
    expect(greatCircleKm(CENTER, edge)).toBeGreaterThan(short.radiusKm);
    expect(index.nearest(CENTER, { ...short, limit: 10 })).toEqual([]);
    expect(index.count(CENTER, short)).toBe(0);
  });

  it("puts drivers as near as each other in order of id, whatever order they came in", () => {
    const index = new DriverGeoIndex();
    const east = { latitud: CENTER.latitud, longitud: CENTER.longitud + 0.01 };
    const west = { latitud: CENTER.latitud, longitud: CENTER.longitud - 0.01 };
    expect(greatCircleKm(CENTER, east)).toBe(greatCircleKm(CENTER, west));
    index.set(driver(9, east));
    index.set(driver(4, west));
    index.set(driver(6, east));
    expect(index.nearest(CENTER, { ...cars, limit: 10 })).toEqual([4, 6, 9]);
    expect(index.nearest(CENTER, { ...cars, limit: 2 })).toEqual([4, 6]);
  });

  it.each([
    ["Bogotá, west of Greenwich", 4.711, -74.0721],
    ["Sydney, south and east", -33.8688, 151.2093],
    ["Reykjavík, far north", 64.1466, -21.9426],
    ["where the equator meets the prime meridian", 0, 0],
    ["Fiji, across the antimeridian", -17.7134, 179.99],
    ["near the North Pole", 89.97, 10],
    ["at the South Pole", -90, 0],
  ])("gives the brute-force answer anywhere on Earth: %s", (_, latitud, longitud) => {
    const random = seeded(7);
    const place = { latitud, longitud };
    // About 11 km either way, as many degrees of longitude as that takes there.
    const spread = Math.min(180, 0.1 / Math.max(0.01, Math.cos((latitud * Math.PI) / 180)));
    const around = (p: { latitud: number; longitud: number }, scale: number) => ({
      latitud: Math.max(-90, Math.min(90, p.latitud + (random() - 0.5) * 0.2 * scale)),
      longitud: wrap(p.longitud + (random() - 0.5) * 2 * spread * scale),
    });
    const drivers = Array.from({ length: 3000 }, (_, i) =>
      driver(i + 1, around(place, 1), {
        tipo_vehiculo: VEHICLE_TYPES[i % VEHICLE_TYPES.length]!,
        at: ago(random() * 90),
        apto_hasta: random() < 0.05 ? ago(1) : YEAR_ON,
      }),
    );
    const index = new DriverGeoIndex();
    for (const d of drivers) index.set(d);
    // Centres on cell edges (multiples of every cell size) as well as anywhere.
    const onEdge = {
      latitud: Math.round(latitud / 0.0439453125) * 0.0439453125,
      longitud: wrap(Math.round(longitud / 0.0439453125) * 0.0439453125),
    };
    const centres = [place, onEdge, ...Array.from({ length: 6 }, () => around(place, 0.8))];
    for (const centre of centres) expectBruteForce(index, drivers, centre);
  });

  it("measures cells nearer the pole with their narrower degrees of longitude", () => {
    // A driver just inside the corner of the next large cell north-east, exactly at the radius.
    const cell = 360 / 2 ** 13;
    const centre = { latitud: (Math.floor(70 / cell) + 0.01) * cell, longitud: (Math.floor(20 / cell) + 0.01) * cell };
    const corner = { latitud: (Math.floor(70 / cell) + 1) * cell + 1e-9, longitud: (Math.floor(20 / cell) + 1) * cell + 1e-9 };
    const index = new DriverGeoIndex();
    index.set(driver(1, corner));
    const query = { ...cars, radiusKm: greatCircleKm(centre, corner) };
    expect(index.nearest(centre, { ...query, limit: 10 })).toEqual([1]);
    expect(index.count(centre, query)).toBe(1);
  });

  it("tells apart drivers in cells that share a bucket, a whole number of folds apart", () => {
    const index = new DriverGeoIndex();
    // 256 cells of each size apart: the same bucket of each grid.
    const drivers = [0, 0.703125, 11.25, 45].flatMap((shift, i) => [
      driver(10 * i + 1, { latitud: CENTER.latitud, longitud: CENTER.longitud + shift }),
      driver(10 * i + 2, { latitud: CENTER.latitud + shift, longitud: CENTER.longitud + 0.001 }),
    ]);
    for (const d of drivers) index.set(d);
    expect(index.nearest(CENTER, { ...cars, limit: 10 })).toEqual([1, 2]);
    for (const d of drivers) expectBruteForce(index, drivers, d);
  });

  it("skips drivers found stale until they ping again, and still finds them for a longer window", () => {
    const index = new DriverGeoIndex();
    index.set(driver(1, north(1), { at: ago(70) }));
    index.set(driver(2, north(2)));
    index.set(driver(3, north(3), { at: ago(80) }));
    expect(index.nearest(CENTER, { ...cars, limit: 10 })).toEqual([2]);
    expect(index.count(CENTER, cars)).toBe(1);
    const longer = { ...cars, freshSince: ago(75) };
    expect(index.nearest(CENTER, { ...longer, limit: 10 })).toEqual([1, 2]);
    expect(index.count(CENTER, longer)).toBe(2);
    expect(index.nearest(CENTER, { ...cars, limit: 10 })).toEqual([2]);
    index.set(driver(3, north(3.001)));
    expect(index.nearest(CENTER, { ...cars, limit: 10 })).toEqual([2, 3]);
    expect(index.count(CENTER, cars)).toBe(2);
  });

  it("keeps finding everyone while drivers come, go and move, many at a time", () => {
    const random = seeded(11);
    const index = new DriverGeoIndex();
    const live = new Map<number, IndexedDriver>();
    for (let step = 0; step < 6000; step++) {
      const id = 1 + Math.floor(random() * 800);
      if (random() < 0.2) {
        index.remove(id);
        live.delete(id);
      } else {
        const d = driver(
          id,
          { latitud: CENTER.latitud + (random() - 0.5) * 0.2, longitud: CENTER.longitud + (random() - 0.5) * 0.2 },
          {
            tipo_vehiculo: VEHICLE_TYPES[Math.floor(random() * 2)]!,
            at: ago(random() * 90),
          },
        );
        index.set(d);
        live.set(id, d);
      }
      if (step % 500 === 0)
        expectBruteForce(
          index,
          [...live.values()].sort((a, b) => a.conductor_id - b.conductor_id),
          CENTER,
        );
    }
    expect(index.size).toBe(live.size);
  });

  it("returns everyone in reach when asked for more than there are", () => {
    const index = new DriverGeoIndex();
    for (const [i, km] of [0.5, 1.5, 2.5].entries()) index.set(driver(i + 1, north(km)));
    expect(index.nearest(CENTER, { ...cars, limit: 1000 })).toEqual([1, 2, 3]);
  });
});

/** A small deterministic generator (mulberry32). */
function seeded(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

const wrap = (longitud: number) => ((((longitud + 180) % 360) + 360) % 360) - 180;

/** Nearest and count, for every vehicle type, as checking every driver gives them. */
function expectBruteForce(index: DriverGeoIndex, drivers: IndexedDriver[], centre: { latitud: number; longitud: number }): void {
  for (const tipo_vehiculo of VEHICLE_TYPES) {
    const query = { ...cars, tipo_vehiculo };
    const expected = drivers
      .filter((d) => d.tipo_vehiculo === tipo_vehiculo && d.apto_hasta > NOW && d.at >= query.freshSince)
      .map((d) => ({ conductor_id: d.conductor_id, distanceKm: greatCircleKm(centre, d) }))
      .filter((d) => d.distanceKm <= query.radiusKm)
      .sort((a, b) => a.distanceKm - b.distanceKm || a.conductor_id - b.conductor_id);
    expect(index.nearest(centre, { ...query, limit: 10 })).toEqual(ids(expected.slice(0, 10)));
    expect(index.count(centre, query)).toBe(expected.length);
  }
}
