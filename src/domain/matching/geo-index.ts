import { greatCircleKm, type Point } from "../maps/geo.js";

export interface DriverPosition extends Point {
  conductor_id: number;
  /** When the driver's phone reported the position. */
  at: Date;
}

// 0.05° is about 5.5 km of latitude: a 5 km search touches the 3×3 cells around its centre.
const CELL_DEGREES = 0.05;
const cellOf = (point: Point) => `${Math.floor(point.latitud / CELL_DEGREES)}:${Math.floor(point.longitud / CELL_DEGREES)}`;

/**
 * Where the online drivers are, for nearby lookups without a database round trip: a grid of
 * cells, each holding the drivers inside it. Positions move every few seconds, so updates are
 * O(1); a lookup reads only the cells its circle touches.
 */
export class DriverGeoIndex {
  #positions = new Map<number, DriverPosition & { cell: string }>();
  #cells = new Map<string, Set<number>>();

  get size(): number {
    return this.#positions.size;
  }

  /** Records an online driver's position; an offline driver leaves the index. */
  update(position: DriverPosition & { disponible: boolean }): void {
    this.remove(position.conductor_id);
    if (!position.disponible) return;
    const cell = cellOf(position);
    const { conductor_id, latitud, longitud, at } = position;
    this.#positions.set(conductor_id, { conductor_id, latitud, longitud, at: new Date(at), cell });
    const members = this.#cells.get(cell) ?? new Set<number>();
    this.#cells.set(cell, members.add(conductor_id));
  }

  remove(conductorId: number): void {
    const previous = this.#positions.get(conductorId);
    if (!previous) return;
    this.#positions.delete(conductorId);
    const members = this.#cells.get(previous.cell);
    members?.delete(conductorId);
    if (members?.size === 0) this.#cells.delete(previous.cell);
  }

  /** Drivers within `radiusKm` of `center` whose position is not older than `since`, nearest first. */
  nearby(center: Point, radiusKm: number, since: Date): Array<DriverPosition & { distanceKm: number }> {
    const latCells = Math.ceil(radiusKm / 111 / CELL_DEGREES);
    // Cells are narrower in longitude away from the equator.
    const lngCells = Math.ceil(radiusKm / (111 * Math.max(0.01, Math.cos((center.latitud * Math.PI) / 180))) / CELL_DEGREES);
    const row = Math.floor(center.latitud / CELL_DEGREES);
    const column = Math.floor(center.longitud / CELL_DEGREES);
    const found: Array<DriverPosition & { distanceKm: number }> = [];
    for (let r = row - latCells; r <= row + latCells; r++) {
      for (let c = column - lngCells; c <= column + lngCells; c++) {
        for (const id of this.#cells.get(`${r}:${c}`) ?? []) {
          const position = this.#positions.get(id)!;
          if (position.at < since) continue;
          const distanceKm = greatCircleKm(center, position);
          if (distanceKm <= radiusKm) {
            const { conductor_id, latitud, longitud, at } = position;
            found.push({ conductor_id, latitud, longitud, at, distanceKm });
          }
        }
      }
    }
    return found.sort((a, b) => a.distanceKm - b.distanceKm);
  }
}
