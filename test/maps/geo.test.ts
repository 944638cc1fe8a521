import { describe, expect, it } from "vitest";
import { bearing, compassPoint, greatCircleKm, pathBetween, roadKm, ROAD_FACTOR } from "../../src/domain/geo.js";
import { offlineRouter } from "../../src/domain/maps/offline-router.js";

const MEDELLIN = { latitud: 6.2518, longitud: -75.5636 };
const BOGOTA = { latitud: 4.711, longitud: -74.0721 };

describe("distances", () => {
  it("measures the great circle", () => {
    // One degree of a meridian on the mean Earth radius (6371.0088 km) is 2πR/360.
    expect(greatCircleKm({ latitud: 0, longitud: 0 }, { latitud: 1, longitud: 0 })).toBeCloseTo((2 * Math.PI * 6371.0088) / 360, 6);
    // Medellín to Bogotá is about 238 km as the crow flies.
    expect(Math.abs(greatCircleKm(MEDELLIN, BOGOTA) - 238)).toBeLessThan(2);
    expect(greatCircleKm(MEDELLIN, MEDELLIN)).toBe(0);
    expect(greatCircleKm(MEDELLIN, BOGOTA)).toBeCloseTo(greatCircleKm(BOGOTA, MEDELLIN), 9);
  });

  it("turns the straight line into street distance with the road factor", () => {
    expect(ROAD_FACTOR).toBe(1.3);
    expect(roadKm(MEDELLIN, BOGOTA)).toBeCloseTo(greatCircleKm(MEDELLIN, BOGOTA) * 1.3, 9);
  });

  it("names directions", () => {
    expect(compassPoint(bearing(MEDELLIN, { latitud: 7, longitud: -75.5636 }))).toBe("norte");
    expect(compassPoint(bearing(MEDELLIN, BOGOTA))).toBe("sureste");
    expect(compassPoint(bearing(MEDELLIN, { latitud: 6.2518, longitud: -76 }))).toBe("oeste");
  });

  it("draws a path from origin to destination", () => {
    const path = pathBetween(MEDELLIN, BOGOTA, 5);
    expect(path).toHaveLength(5);
    expect(path[0]).toEqual(MEDELLIN);
    expect(path.at(-1)).toEqual(BOGOTA);
    expect(path[2]!.latitud).toBeCloseTo((MEDELLIN.latitud + BOGOTA.latitud) / 2, 5);
  });
});

describe("the offline router", () => {
  it("gives the road distance, a path every 250 m or so, and an instruction", async () => {
    const destination = { latitud: 6.2086, longitud: -75.5659 };
    const route = await offlineRouter.route(MEDELLIN, destination);
    const straight = greatCircleKm(MEDELLIN, destination);
    expect(route.distanceKm).toBeCloseTo(straight * 1.3, 2);
    expect(route.freeFlowMinutes).toBeNull();
    expect(route.points[0]).toEqual(MEDELLIN);
    expect(route.points.at(-1)).toEqual(destination);
    expect(route.points.length).toBe(Math.ceil(straight / 0.25) + 1);
    expect(route.instructions).toMatch(/^Dirígete hacia el sur y recorre unos 6,2\d? km hasta el destino\.$/);
  });

  it("keeps long paths to a bounded number of points and handles a zero-length trip", async () => {
    expect((await offlineRouter.route(MEDELLIN, BOGOTA)).points).toHaveLength(200);
    const still = await offlineRouter.route(MEDELLIN, MEDELLIN);
    expect(still).toMatchObject({ distanceKm: 0, instructions: "Ya estás en el destino." });
    expect(still.points).toHaveLength(2);
  });
});
