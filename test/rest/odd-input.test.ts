import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { z } from "zod";
import { legacyRoutes } from "../../src/rest/routes/index.js";
import { createTestApp, type TestApp } from "../support/app.js";
import { createDriver, createPassenger, requestTrip } from "../support/trips.js";
import { newAdmin } from "../support/drivers.js";

let app: TestApp;
let ids: { passenger: number; driver: number; admin: number; trip: number };
beforeAll(async () => {
  app = await createTestApp();
  const passenger = await createPassenger(app);
  const driver = await createDriver(app);
  const admin = await newAdmin(app);
  const trip = await requestTrip(app, passenger.id);
  ids = { passenger: passenger.id, driver: driver.id, admin: admin.id, trip: trip.id };
});
afterAll(() => app.close());

/** Values no client should send, and some clients will. */
const ODD: unknown[] = [
  2 ** 31,
  -1,
  0,
  1.5,
  1e308,
  "",
  "   ",
  "a\u0000b",
  "x".repeat(20_000),
  true,
  [],
  [1, 2],
  { a: 1 },
  null,
  "NaN",
  "1e999",
  "' OR 1=1 --",
];

/** A plausible value for each known field, so that one odd field at a time is what gets tested. */
function baseline(field: string): unknown {
  if (field === "usuario_id" || field === "userId" || field === "user_id") return ids.passenger;
  if (field === "conductor_id") return ids.driver;
  if (field === "admin_id") return ids.admin;
  if (field === "trip_id") return ids.trip;
  return undefined;
}

describe("every legacy route", () => {
  for (const route of legacyRoutes.filter((r) => !r.multipart)) {
    const fields = Object.keys((route.input as z.ZodObject).shape);
    it(`${route.method} ${route.path} answers odd values with a Spanish 4xx, never a 500`, async () => {
      for (const field of fields) {
        for (const value of ODD) {
          const body = Object.fromEntries(fields.map((f) => [f, baseline(f)]));
          body[field] = value;
          const payload =
            route.method === "GET"
              ? Object.fromEntries(
                  Object.entries(body)
                    .filter(([, v]) => v !== undefined)
                    .map(([k, v]) => [k, typeof v === "string" ? v : JSON.stringify(v)]),
                )
              : body;
          const response = await app.legacy(route.method, route.path, payload);
          const answer = JSON.stringify(response.body)?.slice(0, 200);
          const where = `${field}=${JSON.stringify(value)?.slice(0, 40)} → ${response.status} ${answer}`;
          expect(response.status, where).toBeLessThan(500);
          if (!response.body.success) {
            expect(response.body.message, where).not.toMatch(/Variable|cannot represent|Expected|Invalid|Unexpected/);
          }
        }
      }
    });
  }
});
