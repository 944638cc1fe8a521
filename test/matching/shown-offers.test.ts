import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.js";
import { LLERAS, createDriver, createPassenger, northOf, requestTrip } from "../support/trips.js";

let app: TestApp;
beforeAll(async () => {
  // One driver per wave, so that the driver polling below is not offered the trip by a wave first.
  app = await createTestApp({ env: { DISPATCH_WAVE_SIZE: "1" } });
});
afterAll(() => app.close());

const offerWrites = () => app.queries.filter((sql) => /INSERT INTO ofertas_viaje/i.test(sql)).length;

describe("a driver polling for requests", () => {
  it("records each request shown the first time, and polls again without writing", async () => {
    const pickup = northOf(LLERAS, 60);
    await createDriver(app, { at: northOf(pickup, 1) });
    const poller = await createDriver(app, { at: northOf(pickup, 2) });
    const trip = await requestTrip(app, (await createPassenger(app)).id, { origen: { ...pickup, direccion: "Zona" } });
    const poll = () => app.legacy("GET", "/conductor/get_pending_requests.php", { conductor_id: String(poller.id) });

    const before = offerWrites();
    const first = await poll();
    expect(first.body.solicitudes.map((s: { id: number }) => s.id)).toEqual([trip.id]);
    expect(offerWrites()).toBe(before + 1);
    const offer = await app.db.tripOffer.findUniqueOrThrow({
      where: { viaje_id_conductor_id: { viaje_id: trip.id, conductor_id: poller.id } },
    });

    for (let i = 0; i < 3; i++) expect((await poll()).body).toEqual(first.body);
    expect(offerWrites()).toBe(before + 1);
    // Shown when it was first listed.
    expect(
      await app.db.tripOffer.findUniqueOrThrow({ where: { viaje_id_conductor_id: { viaje_id: trip.id, conductor_id: poller.id } } }),
    ).toEqual(offer);
  });
});
