import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { computeFare, demandCountLimit, demandMultiplier } from "../../src/domain/pricing/fare.js";

const AUTO = {
  id: 1,
  tipo_vehiculo: "auto",
  tarifa_base: 6000,
  precio_km: 3000,
  precio_minuto: 400,
  tarifa_minima: 9000,
  recargo_pico: 0.2,
  recargo_nocturno: 0.25,
  comision_plataforma: 15,
  comision_metodo_pago: 2.5,
  actualizado_en: new Date(),
};
// Bogotá time: Tuesday 10:00, Tuesday 07:30, Tuesday 23:00, Saturday 08:00.
const DAY = new Date("2026-03-10T15:00:00Z");
const PEAK = new Date("2026-03-10T12:30:00Z");
const NIGHT = new Date("2026-03-11T04:00:00Z");
const SATURDAY_MORNING = new Date("2026-03-14T13:00:00Z");

describe("fares", () => {
  it("add base, distance and time", () => {
    const fare = computeFare(AUTO, { distanceKm: 5, minutes: 20, at: DAY, demand: 1 });
    // 6000 + 5 × 3000 + 20 × 400 = 29000
    expect(fare).toEqual({
      tarifa_base: 6000,
      por_distancia: 15000,
      por_tiempo: 8000,
      recargo: null,
      porcentaje_recargo: 0,
      por_recargo: 0,
      tarifa_minima: 9000,
      multiplicador_demanda: 1,
      precio_estimado: 29000,
    });
  });

  it("never go below the minimum fare", () => {
    expect(computeFare(AUTO, { distanceKm: 0.3, minutes: 2, at: DAY, demand: 1 }).precio_estimado).toBe(9000);
  });

  it("add the peak surcharge on weekday rush hours only", () => {
    expect(computeFare(AUTO, { distanceKm: 5, minutes: 20, at: PEAK, demand: 1 })).toMatchObject({
      recargo: "pico",
      porcentaje_recargo: 0.2,
      por_recargo: 5800,
      precio_estimado: 34800,
    });
    expect(computeFare(AUTO, { distanceKm: 5, minutes: 20, at: SATURDAY_MORNING, demand: 1 }).recargo).toBeNull();
  });

  it("add the night surcharge", () => {
    expect(computeFare(AUTO, { distanceKm: 5, minutes: 20, at: NIGHT, demand: 1 })).toMatchObject({
      recargo: "nocturno",
      por_recargo: 7250,
      precio_estimado: 36300, // 29000 × 1.25 = 36250, to the nearest hundred
    });
  });

  it("multiply by demand, the minimum included", () => {
    expect(computeFare(AUTO, { distanceKm: 5, minutes: 20, at: DAY, demand: 1.5 }).precio_estimado).toBe(43500);
    expect(computeFare(AUTO, { distanceKm: 0.3, minutes: 2, at: DAY, demand: 2 }).precio_estimado).toBe(18000);
  });

  it("are charged in whole hundreds of pesos", () => {
    const fare = computeFare(AUTO, { distanceKm: 1.234, minutes: 7, at: DAY, demand: 1 });
    expect(fare.precio_estimado % 100).toBe(0);
    expect(fare.precio_estimado).toBe(12500); // 6000 + 3702 + 2800 = 12502
  });
});

describe("the demand multiplier", () => {
  it.each([
    [1, 5, 1],
    [3, 3, 1],
    [2, 1, 1.5],
    [3, 1, 2],
    [10, 1, 2],
    [4, 0, 2],
    [3, 2, 1.25],
  ])("%i requests for %i drivers give %d", (requests, drivers, expected) => {
    expect(demandMultiplier(requests, drivers)).toBe(expected);
  });

  it("is at its cap from the count limit on, so a count may stop there", () => {
    fc.assert(
      fc.property(fc.nat(500), fc.nat(5000), (drivers, beyond) => {
        const limit = demandCountLimit(drivers);
        // The request being priced is one more than those counted.
        expect(demandMultiplier(limit + 1, drivers)).toBe(2);
        expect(demandMultiplier(limit + beyond + 1, drivers)).toBe(demandMultiplier(limit + 1, drivers));
      }),
    );
  });
});
