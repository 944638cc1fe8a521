import fc from "fast-check";
import { Histogram, Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { KeyedHistogram } from "../../src/metrics/keyed-histogram.js";

const BOUNDS = [0.005, 0.01, 0.05, 0.1, 1];
const labelsOf = (route: string, status: string) => ({ route, status });

describe("the keyed histogram of the request paths", () => {
  it("exposes what prom-client's own Histogram exposes for the same observations", async () => {
    const observation = fc.record({
      route: fc.constantFrom("/a.php", "/b.php", 'raro"\\'),
      status: fc.constantFrom("200", "404"),
      // Bounds included: a value equal to a bound counts in that bucket.
      seconds: fc.oneof(fc.constantFrom(...BOUNDS), fc.double({ min: 0, max: 3, noNaN: true })),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(observation, { maxLength: 40 }), async (observations) => {
        const own = new Registry();
        const reference = new Registry();
        const keyed = new KeyedHistogram<"route" | "status">("h_seconds", "ayuda", BOUNDS, own);
        const histogram = new Histogram({
          name: "h_seconds",
          help: "ayuda",
          labelNames: ["route", "status"],
          buckets: BOUNDS,
          registers: [reference],
        });
        for (const { route, status, seconds } of observations) {
          keyed.observe(`${route} ${status}`, () => labelsOf(route, status), seconds);
          histogram.observe(labelsOf(route, status), seconds);
        }
        expect(await own.metrics()).toBe(await reference.metrics());
      }),
    );
  });

  it("makes a series' labels once, the first time its key is met", () => {
    const keyed = new KeyedHistogram<"route">("h2_seconds", "ayuda", BOUNDS, new Registry());
    let made = 0;
    const labels = () => {
      made++;
      return { route: "/a.php" };
    };
    for (let i = 0; i < 5; i++) keyed.observe("/a.php", labels, 0.02);
    expect(made).toBe(1);
  });
});
