import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Deps } from "../../src/domain/deps.js";
import type { EventMap, Events } from "../../src/domain/events.js";
import { sendDueWaves } from "../../src/domain/matching/dispatch.js";
import { startDispatcher } from "../../src/background/dispatcher.js";
import { DriverGeoIndex } from "../../src/domain/presence/geo-index.js";
import { loadPresences } from "../../src/domain/matching/online-drivers.js";
import { DriverPresence } from "../../src/domain/presence/presence.js";
import { databaseOutage } from "../../src/domain/outage.js";
import { createTestApp, type TestApp } from "../support/app.js";
import { FixedClock } from "../support/clock.js";
import { post } from "../support/fixtures.js";
import { LLERAS, createDriver, createPassenger, northOf, requestTrip } from "../support/trips.js";

/** The due waves of pending requests live in the database, and whichever process claims one sends it. */
const WAVE_MS = 10_000;
const LEASE_MS = 1500;
let app: TestApp;
let deps: Deps;
const clock = new FixedClock("2026-03-10T15:00:00Z");
beforeAll(async () => {
  // Passes run when the tests nudge them, after moving the clock.
  app = await createTestApp({
    clock,
    env: { DISPATCH_WAVE_SIZE: "2", DISPATCH_WAVE_S: String(WAVE_MS / 1000) },
  });
  deps = app.server.deps;
});
afterAll(() => app.close());

let area = 0;
/** Drivers at these distances (km) from a pickup of their own, nearest first. */
async function cityBlock(distances = [1, 2, 3, 4, 4.5]) {
  const pickup = { ...northOf(LLERAS, 40 * ++area), direccion: `Zona ${area}` };
  const drivers = [];
  for (const km of distances) drivers.push((await createDriver(app, { at: northOf(pickup, km) })).id);
  return { pickup, drivers };
}
/** A new passenger's request from `pickup`: the trip's id. */
const request = async (pickup: object): Promise<number> => (await requestTrip(app, (await createPassenger(app)).id, { origen: pickup })).id;
const offered = async (tripId: number) =>
  (await app.db.tripOffer.findMany({ where: { viaje_id: tripId }, orderBy: { id: "asc" }, select: { conductor_id: true } })).map(
    (o) => o.conductor_id,
  );
const nextWaveAt = async (tripId: number) => (await app.db.trip.findUniqueOrThrow({ where: { id: tripId } })).proxima_ola;

/** The requests each loop pushed to drivers, as [loop, driver, trip]. */
const pushed: Array<[number, number, number]> = [];
/** Another process's dispatcher on the same database, recording what it pushes. */
function otherProcess(loop: number) {
  const publish: Events["publish"] = (topic, ...args) => {
    if (topic === "solicitud_viaje") {
      const [conductorId, event] = args as EventMap["solicitud_viaje"];
      pushed.push([loop, conductorId, event.viaje.id]);
    }
    deps.events.publish(topic, ...args);
  };
  return startDispatcher(
    { ...deps, events: { ...deps.events, publish } },
    { pollMs: 60_000, database: databaseOutage(deps.log, async () => {}) },
  );
}

describe("the waves of a pending request", () => {
  it("go out once each when several processes look for due waves at the same time", async () => {
    const blocks = [await cityBlock([1, 2, 3, 4]), await cityBlock([1, 2, 3, 4]), await cityBlock([1, 2, 3, 4])];
    const trips = await Promise.all(blocks.map(({ pickup }) => request(pickup)));
    const loops = [otherProcess(1), otherProcess(2), otherProcess(3)];
    await Promise.all(loops.map((loop) => loop.nudge()));
    clock.advance(WAVE_MS);
    await Promise.all(loops.map((loop) => loop.nudge()));
    await Promise.all(loops.map((loop) => loop.stop()));

    for (const [i, { drivers }] of blocks.entries()) {
      expect(await offered(trips[i]!)).toEqual(drivers);
      // Every driver of the second wave heard of the request once, from one process.
      const heard = pushed.filter(([, , trip]) => trip === trips[i]).map(([, driver]) => driver);
      expect(heard.sort()).toEqual(drivers.slice(2).sort());
    }
  });

  it("stop when the request is cancelled before the next one is due", async () => {
    const { pickup, drivers } = await cityBlock();
    const trip = await request(pickup);
    expect((await post(app, "/viajes/cancel_trip.php", { trip_id: trip, motivo: "Cambio de planes" })).status).toBe(200);
    clock.advance(WAVE_MS);
    await app.server.nudgeDispatcher();
    expect(await offered(trip)).toEqual(drivers.slice(0, 2));
  });

  it("are due again when their claim lapses, after the lease rather than a wave period, if the process sending one dies", async () => {
    const { pickup, drivers } = await cityBlock();
    const trip = await request(pickup);
    clock.advance(WAVE_MS);
    // A process that claims the wave and dies before sending it.
    class DeadIndex extends DriverGeoIndex {
      override nearest(): number[] {
        throw new Error("the process died");
      }
    }
    class DeadPresence extends DriverPresence {
      override readonly index = new DeadIndex();
    }
    await expect(sendDueWaves({ ...deps, matching: { ...deps.matching, presence: new DeadPresence() } }, LEASE_MS)).rejects.toThrow(
      "the process died",
    );
    expect(await nextWaveAt(trip)).toEqual(new Date(clock.now().getTime() + LEASE_MS));

    // While the claim holds, nobody else sends it.
    clock.advance(LEASE_MS - 1);
    await app.server.nudgeDispatcher();
    expect(await offered(trip)).toEqual(drivers.slice(0, 2));
    clock.advance(1);
    await app.server.nudgeDispatcher();
    expect(await offered(trip)).toEqual(drivers.slice(0, 4));
    expect(await nextWaveAt(trip)).toEqual(new Date(clock.now().getTime() + WAVE_MS));
  });

  it("go out once when the process that claimed one stalls past its claim: whoever claimed it next sends it", async () => {
    const { pickup, drivers } = await cityBlock();
    const trip = await request(pickup);
    const next = otherProcess(5);
    await next.nudge();
    clock.advance(WAVE_MS);
    // The first process stalls just after its claim, until the claim has lapsed and the next process has sent the wave.
    const db = new Proxy(deps.db, {
      get(target, property, receiver) {
        if (property !== "tripOffer") return Reflect.get(target, property, receiver);
        return {
          findMany: async (args: Parameters<Deps["db"]["tripOffer"]["findMany"]>[0]) => {
            clock.advance(LEASE_MS);
            await next.nudge();
            return target.tripOffer.findMany(args);
          },
        };
      },
    });
    const publish: Events["publish"] = (topic, ...args) => {
      if (topic === "solicitud_viaje") pushed.push([4, args[0] as number, trip]);
    };
    await sendDueWaves({ ...deps, db, events: { ...deps.events, publish } }, LEASE_MS);
    await next.stop();

    expect(await offered(trip)).toEqual(drivers.slice(0, 4));
    expect(pushed.filter(([, , pushedTrip]) => pushedTrip === trip)).toEqual([
      [5, drivers[2], trip],
      [5, drivers[3], trip],
    ]);
    expect(await nextWaveAt(trip)).toEqual(new Date(clock.now().getTime() + WAVE_MS));
  });

  it("go on while the process sending them does not know every driver online yet", async () => {
    const { pickup, drivers } = await cityBlock([1, 2, 3]);
    const trip = await request(pickup);
    // As after losing Redis: this process forgets who is online until it reads them again.
    deps.matching.presence.forgetAll();
    clock.advance(WAVE_MS);
    await app.server.nudgeDispatcher();
    expect(await offered(trip)).toEqual(drivers.slice(0, 2));
    expect(await nextWaveAt(trip)).toEqual(new Date(clock.now().getTime() + WAVE_MS));

    await loadPresences(deps);
    clock.advance(WAVE_MS);
    await app.server.nudgeDispatcher();
    expect(await offered(trip)).toEqual(drivers);
    // Now nobody is left within reach, and this process knows it: the waves end.
    clock.advance(WAVE_MS);
    await app.server.nudgeDispatcher();
    expect(await nextWaveAt(trip)).toBeNull();
  });
});
