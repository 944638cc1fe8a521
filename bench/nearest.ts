/**
 * Scenario 4, in-process: the nearest 10 eligible drivers to a pickup from the geo index, against
 * a linear scan of the same drivers, for cities of 1k, 10k and 100k drivers.
 */
import type { Point } from "../src/domain/geo.js";
import { MATCH_RADIUS_KM } from "../src/domain/matching/eligibility.js";
import type { IndexedDriver } from "../src/domain/presence/geo-index.js";
import { DriverGeoIndex, greatCircleKm } from "./built.js";
import { VEHICLE_TYPES, type VehicleType } from "../src/domain/service-types.js";
import { pointInCity } from "./seed.js";
import type { BenchRow } from "./table.js";

const SIZES = [1_000, 10_000, 100_000];
const LIMIT = 10;
const CENTRES = 1_000;
/** Lookups compared between index and scan before timing: the ratio only counts if they agree. */
const CHECKED = 100;

interface Lookup {
  center: Point;
  tipo_vehiculo: VehicleType;
}
interface Found {
  conductor_id: number;
  distanceKm: number;
}

export interface NearestSettings {
  /** Milliseconds of lookups in each timed round. */
  roundMs: number;
  rounds: number;
  progress: (line: string) => void;
}

/**
 * Drivers spread over the city, vehicle types in turn; a position up to two minutes old (so
 * about half are stale for a one-minute freshness) and one driver in twenty whose documents expired.
 */
function drivers(count: number, now: Date): IndexedDriver[] {
  return Array.from({ length: count }, (_, i) => ({
    conductor_id: i + 1,
    ...pointInCity(),
    tipo_vehiculo: VEHICLE_TYPES[i % VEHICLE_TYPES.length]!,
    apto_hasta: new Date(now.getTime() + (Math.random() < 0.05 ? -1 : 1) * 24 * 3600_000),
    at: new Date(now.getTime() - Math.random() * 120_000),
  }));
}

/** The baseline: every driver looked at, eligible ones measured, the ids of the nearest in order, as the index answers. */
function scan(all: IndexedDriver[], { center, tipo_vehiculo }: Lookup, now: Date, freshSince: Date): number[] {
  const found: Found[] = [];
  for (const d of all) {
    if (d.tipo_vehiculo !== tipo_vehiculo || d.apto_hasta <= now || d.at < freshSince) continue;
    const distanceKm = greatCircleKm(center, d);
    if (distanceKm <= MATCH_RADIUS_KM) found.push({ conductor_id: d.conductor_id, distanceKm });
  }
  return found
    .sort((a, b) => a.distanceKm - b.distanceKm)
    .slice(0, LIMIT)
    .map((f) => f.conductor_id);
}

/** Microseconds per lookup, going round the centres for about `ms` milliseconds. */
function perLookup(lookups: Lookup[], ms: number, find: (lookup: Lookup) => number[]): number {
  let done = 0;
  let sink = 0;
  const start = performance.now();
  const until = start + ms;
  do {
    // Batches of 16 keep the clock out of the fast lookups' time.
    for (let i = 0; i < 16; i++) sink += find(lookups[done++ % lookups.length]!).length;
  } while (performance.now() < until);
  if (sink < 0) throw new Error("unreachable");
  return ((performance.now() - start) * 1000) / done;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const micros = (us: number) => `${us < 10 ? us.toFixed(2) : Math.round(us).toLocaleString("en-US")} µs/lookup`;

export function nearestRows(settings: NearestSettings): BenchRow[] {
  const now = new Date();
  const freshSince = new Date(now.getTime() - 60_000);
  const lookups: Lookup[] = Array.from({ length: CENTRES }, (_, i) => ({
    center: pointInCity(),
    tipo_vehiculo: VEHICLE_TYPES[i % VEHICLE_TYPES.length]!,
  }));
  return SIZES.map((size) => {
    const all = drivers(size, now);
    const index = new DriverGeoIndex();
    for (const driver of all) index.set(driver);
    const viaIndex = ({ center, tipo_vehiculo }: Lookup) =>
      index.nearest(center, { tipo_vehiculo, now, freshSince, radiusKm: MATCH_RADIUS_KM, limit: LIMIT });
    const viaScan = (lookup: Lookup) => scan(all, lookup, now, freshSince);

    const same = (a: number[], b: number[]) => a.length === b.length && a.every((id, i) => id === b[i]);
    const differ = lookups.slice(0, CHECKED).filter((lookup) => !same(viaIndex(lookup), viaScan(lookup))).length;
    const found = lookups.slice(0, CHECKED).reduce((sum, lookup) => sum + viaScan(lookup).length, 0) / CHECKED;

    // A warm-up round each, then alternating rounds.
    perLookup(lookups, settings.roundMs / 2, viaIndex);
    perLookup(lookups, settings.roundMs / 2, viaScan);
    const indexed: number[] = [];
    const scanned: number[] = [];
    for (let round = 1; round <= settings.rounds; round++) {
      indexed.push(perLookup(lookups, settings.roundMs, viaIndex));
      scanned.push(perLookup(lookups, settings.roundMs, viaScan));
      settings.progress(
        `  round ${round}/${settings.rounds} ${size} drivers: index ${micros(indexed.at(-1)!)}, scan ${micros(scanned.at(-1)!)}`,
      );
    }
    const [indexUs, scanUs] = [median(indexed), median(scanned)];
    const notes = [`${found.toFixed(1)} found per lookup on average`];
    if (differ > 0) notes.push(`INVALID: index and scan disagree on ${differ} of ${CHECKED} lookups`);
    return {
      path: `nearest ${LIMIT} eligible of ${size.toLocaleString("en-US")} drivers (in-process)`,
      measured: `DriverGeoIndex: ${micros(indexUs)}`,
      baseline: `linear scan, haversine, sort: ${micros(scanUs)}`,
      ratio: scanUs / indexUs,
      target: 100,
      note: notes.join("; "),
    };
  });
}
