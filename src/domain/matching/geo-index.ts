import { greatCircleKm, type Point } from "../maps/geo.js";
import type { VehicleType } from "../trips/service-types.js";

/** An online driver free for trips, as the index keeps them. */
export interface IndexedDriver extends Point {
  conductor_id: number;
  tipo_vehiculo: VehicleType;
  /** The first of the driver's documents to expire: they may take trips until then. */
  apto_hasta: Date;
  /** When the driver's phone reported the position. */
  at: Date;
}

export interface NearbyQuery {
  tipo_vehiculo: VehicleType;
  now: Date;
  /** Positions older than this no longer say where a driver is. */
  freshSince: Date;
  radiusKm: number;
}

// Two grids per vehicle type: cells of about 280 m, where a busy city has a few drivers per cell
// so the nearest ten are a ring or two away, and of about 2.2 km, for where drivers are few and
// the small cells would mostly be empty.
const FINE_DEGREES = 0.0025;
const COARSE_DEGREES = 0.02;
/** Drivers in the centre's large cell above which the small cells are walked. */
const DENSE = 32;
const KM_PER_DEGREE = 111.2;
// Row and column fit one number: columns span at most ±72,000 cells around the globe.
const COLUMNS = 200_000;

type Entry = { conductor_id: number; latitud: number; longitud: number; tipo_vehiculo: VehicleType; aptoMs: number; atMs: number; fine: number; coarse: number };

/** The drivers of one vehicle type by cell, for one cell size. */
class Grid {
  readonly cells = new Map<number, Set<Entry>>();
  constructor(readonly degrees: number) {}

  row = (latitud: number) => Math.floor(latitud / this.degrees);
  column = (longitud: number) => Math.floor(longitud / this.degrees);
  key = (row: number, column: number) => row * COLUMNS + column;
  keyOf = (point: Point) => this.key(this.row(point.latitud), this.column(point.longitud));

  add(cell: number, entry: Entry): void {
    const members = this.cells.get(cell);
    if (members) members.add(entry);
    else this.cells.set(cell, new Set([entry]));
  }

  delete(cell: number, entry: Entry): void {
    const members = this.cells.get(cell);
    members?.delete(entry);
    if (members?.size === 0) this.cells.delete(cell);
  }
}

/**
 * Where the drivers free for trips are, per vehicle type, for lookups without a database round
 * trip. Positions move every few seconds, so updates are O(1); the nearest-K lookup walks square
 * rings of cells outwards from the centre and stops as soon as no unvisited cell can hold anyone
 * closer than the K-th found, so its cost follows K, not the number of drivers in the radius.
 */
export class DriverGeoIndex {
  #entries = new Map<number, Entry>();
  #grids = new Map<VehicleType, { fine: Grid; coarse: Grid }>();

  get size(): number {
    return this.#entries.size;
  }

  /** Adds a driver or moves them to a new position. */
  set(driver: IndexedDriver): void {
    const { conductor_id, latitud, longitud, tipo_vehiculo } = driver;
    const grids = this.#gridsOf(tipo_vehiculo);
    const fine = grids.fine.keyOf(driver);
    const coarse = grids.coarse.keyOf(driver);
    const aptoMs = driver.apto_hasta.getTime();
    const atMs = driver.at.getTime();
    const previous = this.#entries.get(conductor_id);
    if (previous && previous.fine === fine && previous.coarse === coarse && previous.tipo_vehiculo === tipo_vehiculo) {
      Object.assign(previous, { latitud, longitud, aptoMs, atMs });
      return;
    }
    if (previous) this.remove(conductor_id);
    const entry: Entry = { conductor_id, latitud, longitud, tipo_vehiculo, aptoMs, atMs, fine, coarse };
    this.#entries.set(conductor_id, entry);
    grids.fine.add(fine, entry);
    grids.coarse.add(coarse, entry);
  }

  remove(conductorId: number): void {
    const entry = this.#entries.get(conductorId);
    if (!entry) return;
    this.#entries.delete(conductorId);
    const grids = this.#grids.get(entry.tipo_vehiculo)!;
    grids.fine.delete(entry.fine, entry);
    grids.coarse.delete(entry.coarse, entry);
  }

  /** The `limit` eligible drivers nearest to `center` within the radius, nearest first, leaving out `exclude`. */
  nearest(center: Point, query: NearbyQuery & { limit: number; exclude?: ReadonlySet<number> }): Array<{ conductor_id: number; distanceKm: number }> {
    const { limit, exclude } = query;
    const found: Array<{ conductor_id: number; distanceKm: number }> = [];
    const grids = this.#grids.get(query.tipo_vehiculo);
    if (limit <= 0 || !grids) return found;
    const dense = (grids.coarse.cells.get(grids.coarse.keyOf(center))?.size ?? 0) > DENSE;
    // The farthest kept once `limit` are found; anything farther is not wanted.
    const bound = () => (found.length < limit ? Infinity : found[limit - 1]!.distanceKm);
    walk(dense ? grids.fine : grids.coarse, center, query, (gapKm) => bound() > gapKm, (entry, distanceKm) => {
      if (exclude?.has(entry.conductor_id) || distanceKm >= bound()) return;
      // Insertion keeps the best `limit` sorted; K is small.
      let i = found.length;
      while (i > 0 && found[i - 1]!.distanceKm > distanceKm) i--;
      found.splice(i, 0, { conductor_id: entry.conductor_id, distanceKm });
      if (found.length > limit) found.pop();
    });
    return found;
  }

  /** How many eligible drivers are within the radius of `center`. */
  count(center: Point, query: NearbyQuery): number {
    const grids = this.#grids.get(query.tipo_vehiculo);
    let count = 0;
    if (grids) walk(grids.coarse, center, query, () => true, () => count++);
    return count;
  }

  #gridsOf(tipo: VehicleType) {
    let grids = this.#grids.get(tipo);
    if (!grids) this.#grids.set(tipo, (grids = { fine: new Grid(FINE_DEGREES), coarse: new Grid(COARSE_DEGREES) }));
    return grids;
  }
}

/**
 * Visits the eligible drivers within the radius ring by ring (ring 0 is the centre's cell) while
 * `more(gapKm)` says so, `gapKm` being how close to the centre the next ring can come.
 */
function walk(grid: Grid, center: Point, query: NearbyQuery, more: (gapKm: number) => boolean, visit: (entry: Entry, distanceKm: number) => void): void {
  if (grid.cells.size === 0) return;
  const { radiusKm } = query;
  const nowMs = query.now.getTime();
  const freshMs = query.freshSince.getTime();
  // The narrower side of a cell (longitude, away from the equator); the centre may sit on its
  // cell's edge, so ring r starts at least r - 1 such widths away.
  const cellKm = grid.degrees * KM_PER_DEGREE * Math.max(0.01, Math.cos((center.latitud * Math.PI) / 180));
  const row = grid.row(center.latitud);
  const column = grid.column(center.longitud);
  const visitCell = (r: number, c: number) => {
    const members = grid.cells.get(grid.key(r, c));
    if (!members) return;
    for (const entry of members) {
      if (entry.aptoMs <= nowMs || entry.atMs < freshMs) continue;
      const distanceKm = greatCircleKm(center, entry);
      if (distanceKm <= radiusKm) visit(entry, distanceKm);
    }
  };
  for (let ring = 0; ; ring++) {
    const gapKm = Math.max(0, ring - 1) * cellKm;
    if (gapKm > radiusKm || !more(gapKm)) return;
    if (ring === 0) {
      visitCell(row, column);
      continue;
    }
    for (let c = column - ring; c <= column + ring; c++) {
      visitCell(row - ring, c);
      visitCell(row + ring, c);
    }
    for (let r = row - ring + 1; r <= row + ring - 1; r++) {
      visitCell(r, column - ring);
      visitCell(r, column + ring);
    }
  }
}
