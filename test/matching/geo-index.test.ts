import { describe, expect, it } from "vitest";
import { greatCircleKm } from "../../src/domain/maps/geo.js";
import { DriverGeoIndex } from "../../src/domain/matching/geo-index.js";

const CENTER = { latitud: 6.2442, longitud: -75.5812 };
const NOW = new Date("2026-03-10T15:00:00Z");
const ago = (seconds: number) => new Date(NOW.getTime() - seconds * 1000);
/** A point `km` north of the centre. */
const north = (km: number) => ({ latitud: CENTER.latitud + km / ((2 * Math.PI * 6371.0088) / 360), longitud: CENTER.longitud });

describe("the driver geo index", () => {
  it("finds drivers up to the radius and not beyond", () => {
    const index = new DriverGeoIndex();
    index.update({ conductor_id: 1, ...north(4.99), disponible: true, at: NOW });
    index.update({ conductor_id: 2, ...north(5.01), disponible: true, at: NOW });
    expect(greatCircleKm(CENTER, north(4.99))).toBeLessThan(5);
    expect(index.nearby(CENTER, 5, ago(60)).map((d) => d.conductor_id)).toEqual([1]);
  });

  it("finds them in every direction, across cell borders, nearest first", () => {
    const index = new DriverGeoIndex();
    const points = [
      { latitud: CENTER.latitud + 0.03, longitud: CENTER.longitud },
      { latitud: CENTER.latitud - 0.04, longitud: CENTER.longitud + 0.001 },
      { latitud: CENTER.latitud, longitud: CENTER.longitud + 0.02 },
      { latitud: CENTER.latitud + 0.001, longitud: CENTER.longitud - 0.044 },
      { latitud: CENTER.latitud + 0.0001, longitud: CENTER.longitud },
    ];
    points.forEach((point, i) => index.update({ conductor_id: i + 1, ...point, disponible: true, at: NOW }));
    const found = index.nearby(CENTER, 5, ago(60));
    expect(found.map((d) => d.conductor_id)).toEqual([5, 3, 1, 2, 4]);
    expect(found.map((d) => d.distanceKm)).toEqual([...found.map((d) => d.distanceKm)].sort((a, b) => a - b));
  });

  it("leaves out stale positions", () => {
    const index = new DriverGeoIndex();
    index.update({ conductor_id: 1, ...CENTER, disponible: true, at: ago(61) });
    index.update({ conductor_id: 2, ...CENTER, disponible: true, at: ago(59) });
    expect(index.nearby(CENTER, 5, ago(60)).map((d) => d.conductor_id)).toEqual([2]);
  });

  it("drops drivers who go offline and moves drivers who move", () => {
    const index = new DriverGeoIndex();
    index.update({ conductor_id: 1, ...CENTER, disponible: true, at: NOW });
    index.update({ conductor_id: 1, latitud: 4.711, longitud: -74.0721, disponible: true, at: NOW });
    expect(index.nearby(CENTER, 5, ago(60))).toEqual([]);
    expect(index.nearby({ latitud: 4.711, longitud: -74.0721 }, 5, ago(60)).map((d) => d.conductor_id)).toEqual([1]);
    index.update({ conductor_id: 1, latitud: 4.711, longitud: -74.0721, disponible: false, at: NOW });
    expect(index.size).toBe(0);
    expect(index.nearby({ latitud: 4.711, longitud: -74.0721 }, 5, ago(60))).toEqual([]);
  });
});
