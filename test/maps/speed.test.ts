import { describe, expect, it } from "vitest";
import {
  HISTORY_PRIOR,
  MIN_HISTORY_TRIPS,
  SPEEDS,
  blendSpeed,
  modelSpeed,
  observedSpeed,
  periodAt,
  travelMinutes,
} from "../../src/domain/maps/speed.js";
import { hourOfWeek } from "../../src/domain/time.js";

// Bogotá is UTC-5 all year: 12:30Z is 07:30 there. 2026-03-10 is a Tuesday, 2026-03-14 a Saturday.
const at = (iso: string) => new Date(iso);

describe("the time-of-day speed model (America/Bogota)", () => {
  it.each([
    ["2026-03-10T12:00:00Z", "peak"], // Tuesday 07:00
    ["2026-03-10T13:59:00Z", "peak"], // 08:59
    ["2026-03-10T14:00:00Z", "day"], // 09:00
    ["2026-03-10T21:59:00Z", "day"], // 16:59
    ["2026-03-10T22:00:00Z", "peak"], // 17:00
    ["2026-03-11T00:00:00Z", "day"], // 19:00
    ["2026-03-11T03:00:00Z", "night"], // 22:00
    ["2026-03-11T10:59:00Z", "night"], // 05:59
    ["2026-03-11T11:00:00Z", "day"], // 06:00
    ["2026-03-14T13:00:00Z", "weekend"], // Saturday 08:00: no peak
    ["2026-03-15T04:00:00Z", "night"], // Saturday 23:00
  ])("%s is %s", (instant, period) => {
    expect(periodAt(at(instant))).toBe(period);
  });

  it("is slower at peak and faster at night", () => {
    const peak = modelSpeed(at("2026-03-10T12:30:00Z"));
    const day = modelSpeed(at("2026-03-10T16:00:00Z"));
    const night = modelSpeed(at("2026-03-11T04:00:00Z"));
    expect(peak).toBe(SPEEDS.peak);
    expect(peak).toBeLessThan(day);
    expect(day).toBeLessThan(night);
    expect(modelSpeed(at("2026-03-14T13:00:00Z"))).toBe(SPEEDS.weekendDay);
  });

  it("turns distance into minutes, rounding up, at least one", () => {
    expect(travelMinutes(7, 14, null)).toBe(30);
    expect(travelMinutes(7.01, 14, null)).toBe(31);
    expect(travelMinutes(0, 14, null)).toBe(1);
  });

  it("slows a provider's free-flow time by the traffic of the moment", () => {
    expect(travelMinutes(10, SPEEDS.night, 12)).toBe(12);
    expect(travelMinutes(10, SPEEDS.peak, 12)).toBe(Math.ceil((12 * SPEEDS.night) / SPEEDS.peak));
  });
});

describe("historical speeds", () => {
  it("are ignored until there are enough trips", () => {
    expect(blendSpeed(20, { trips: MIN_HISTORY_TRIPS - 1, averageKmh: 40 })).toBe(20);
    expect(blendSpeed(20, { trips: 0, averageKmh: null })).toBe(20);
  });

  it("weigh more as trips accumulate", () => {
    expect(blendSpeed(20, { trips: HISTORY_PRIOR, averageKmh: 40 })).toBe(30);
    const many = blendSpeed(20, { trips: 3000, averageKmh: 40 });
    expect(many).toBeGreaterThan(39.5);
    expect(many).toBeLessThan(40);
  });

  it("come from real distance over real duration, by local hour of the week", () => {
    const start = at("2026-03-10T12:15:00Z"); // Tuesday 07:15 in Bogotá
    const observed = observedSpeed(5, start, new Date(start.getTime() + 20 * 60_000));
    expect(observed).toEqual({ hora_semana: 24 + 7, velocidad_real_kmh: 15 });
    expect(hourOfWeek(at("2026-03-09T05:00:00Z"))).toBe(0); // Monday 00:00
    expect(hourOfWeek(at("2026-03-16T04:59:00Z"))).toBe(167); // Sunday 23:59
  });

  it("leave out implausible trips", () => {
    const start = at("2026-03-10T12:15:00Z");
    expect(observedSpeed(5, start, new Date(start.getTime() + 60_000)).velocidad_real_kmh).toBeNull(); // 300 km/h
    expect(observedSpeed(5, start, start).velocidad_real_kmh).toBeNull();
    expect(observedSpeed(0.1, start, new Date(start.getTime() + 3_600_000)).velocidad_real_kmh).toBeNull();
  });
});
