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

// About 280 m of latitude: a city's busy square kilometre holds a few drivers per cell, so the
// nearest ten are found a ring or two from the centre however many drivers the city has.
const CELL_DEGREES = 0.0025;
const KM_PER_DEGREE = 111.2;
// Row and column fit one number: columns span ±72,000 cells around the globe.
const COLUMNS = 200_000;

const rowOf = (latitud: number) => Math.floor(latitud / CELL_DEGREES);
const columnOf = (longitud: number) => Math.floor(longitud / CELL_DEGREES);
const cellKey = (row: number, column: number) => row * COLUMNS + column;

type Entry = IndexedDriver & { cell: number };

/** The drivers of one vehicle type, by grid cell. */
class Grid {
  readonly cells = new Map<number, Set<Entry>>();

  add(entry: Entry): void {
    const members = this.cells.get(entry.cell);
    if (members) members.add(entry);
    else this.cells.set(entry.cell, new Set([entry]));
  }

  delete(entry: Entry): void {
    const members = this.cells.get(entry.cell);
    members?.delete(entry);
    if (members?.size === 0) this.cells.delete(entry.cell);
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
  #grids = new Map<VehicleType, Grid>();

  get size(): number {
    return this.#entries.size;
  }

  get(conductorId: number): IndexedDriver | undefined {
    return this.#entries.get(conductorId);
  }

  /** Adds a driver or moves them to a new position. */
  set(driver: IndexedDriver): void {
    const { conductor_id, latitud, longitud, tipo_vehiculo, apto_hasta, at } = driver;
    const previous = this.#entries.get(conductor_id);
    const cell = cellKey(rowOf(latitud), columnOf(longitud));
    if (previous && previous.cell === cell && previous.tipo_vehiculo === tipo_vehiculo) {
      Object.assign(previous, { latitud, longitud, apto_hasta, at });
      return;
    }
    if (previous) this.remove(conductor_id);
    const entry: Entry = { conductor_id, latitud, longitud, tipo_vehiculo, apto_hasta, at, cell };
    this.#entries.set(conductor_id, entry);
    let grid = this.#grids.get(tipo_vehiculo);
    if (!grid) this.#grids.set(tipo_vehiculo, (grid = new Grid()));
    grid.add(entry);
  }

  remove(conductorId: number): void {
    const entry = this.#entries.get(conductorId);
    if (!entry) return;
    this.#entries.delete(conductorId);
    this.#grids.get(entry.tipo_vehiculo)?.delete(entry);
  }

  /** The `limit` eligible drivers nearest to `center` within the radius, nearest first, leaving out `exclude`. */
  nearest(center: Point, query: NearbyQuery & { limit: number; exclude?: ReadonlySet<number> }): Array<{ conductor_id: number; distanceKm: number }> {
    const { limit, exclude } = query;
    const found: Array<{ conductor_id: number; distanceKm: number }> = [];
    if (limit <= 0) return found;
    // The farthest kept once `limit` are found; anything farther is not wanted.
    const bound = () => (found.length < limit ? Infinity : found[limit - 1]!.distanceKm);
    this.#walk(center, query, (gapKm) => bound() > gapKm, (entry, distanceKm) => {
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
    let count = 0;
    this.#walk(center, query, () => true, () => count++);
    return count;
  }

  /**
   * Visits the eligible drivers within the radius ring by ring (ring 0 is the centre's cell) while
   * `more(gapKm)` says so, `gapKm` being how close to the centre the next ring can come.
   */
  #walk(center: Point, query: NearbyQuery, more: (gapKm: number) => boolean, visit: (entry: Entry, distanceKm: number) => void): void {
    const grid = this.#grids.get(query.tipo_vehiculo);
    if (!grid || grid.cells.size === 0) return;
    const { now, freshSince, radiusKm } = query;
    // The narrower side of a cell (longitude, away from the equator); the centre may sit on its
    // cell's edge, so ring r starts at least r - 1 such widths away.
    const cellKm = CELL_DEGREES * KM_PER_DEGREE * Math.max(0.01, Math.cos((center.latitud * Math.PI) / 180));
    const row = rowOf(center.latitud);
    const column = columnOf(center.longitud);
    const visitCell = (r: number, c: number) => {
      const members = grid.cells.get(cellKey(r, c));
      if (!members) return;
      for (const entry of members) {
        if (entry.apto_hasta <= now || entry.at < freshSince) continue;
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
}
