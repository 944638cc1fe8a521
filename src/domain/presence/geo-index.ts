import { greatCircleKm, type Point } from "../geo.js";
import type { VehicleType } from "../service-types.js";

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

const RADIANS_PER_DEGREE = Math.PI / 180;
/** The radius of the sphere `greatCircleKm` measures on. */
const KM_PER_RADIAN = greatCircleKm({ latitud: 0, longitud: 0 }, { latitud: 0, longitud: 1 }) / RADIANS_PER_DEGREE;

// Three grids per vehicle type, of square cells 360 / 2^bits degrees on a side: about 305 m, where
// a busy city has a driver or two per cell so the nearest ten are a ring or two away, and 1.2 km
// and 4.9 km for where drivers are fewer and small cells would mostly be empty. A whole number of
// cells goes round the globe, so the columns either side of the antimeridian are neighbours.
const LEVEL_BITS = [17, 15, 13];
/** Drivers expected per cell, judged from the count in the centre's large cell, for a lookup to walk smaller cells. */
const PER_CELL = 1;
// Each grid folds onto 256 × 256 buckets by row and column modulo 256. Cells that far apart share
// a bucket, which costs time but never changes a result, as everyone met is measured; a walk of at
// most 127 rings around a cell meets no bucket twice.
const FOLD_BITS = 8;
const FOLD_MASK = (1 << FOLD_BITS) - 1;
const MAX_RING = (1 << (FOLD_BITS - 1)) - 1;

// Drivers are compared by the squared chord through the Earth between unit vectors: a few
// multiplications, and it orders them exactly as the great-circle distance does.
/** The squared chord of an arc of `km`: it grows with the arc up to half way round. */
function chord2Of(km: number): number {
  const chord = 2 * Math.sin(Math.min(Math.PI, km / KM_PER_RADIAN) / 2);
  return chord * chord;
}
/** No more than the squared chord of an arc of `radians` (as sin x ≥ x − x³/6). */
const chord2Below = (radians: number) => radians * radians * (1 - (radians * radians) / 12);
// Rounding leaves chords from unit vectors and haversine distances a hair's breadth from exact
// (about 1e-15 of the value, plus 1e-15 absolute on a chord); a driver is passed over only when
// farther than a bound by well more than that, and near ties are settled by `greatCircleKm`.
const slack = (chord2: number) => chord2 * (1 + 1e-9) + 1e-18;
type Entry = { fleet: Fleet; slot: number };

/** The slots of every bucket nobody is in. */
const NOBODY: readonly number[] = [];

/**
 * One cell size's buckets, each the slots of the drivers in it: first those whose position may be
 * fresh, then those a lookup found stale, reported before the bucket's `staleBefore`. Later lookups
 * pass over the stale without reading them; a driver's next ping puts them back with the fresh.
 */
class Grid {
  readonly degrees: number;
  readonly radians: number;
  /** Drivers in the centre's cell of the largest size from which lookups may walk this grid. */
  readonly crowd: number;
  readonly buckets = new Array<number[]>(1 << (2 * FOLD_BITS)).fill(NOBODY as number[]);
  readonly fresh = new Int32Array(1 << (2 * FOLD_BITS));
  readonly staleBefore = new Float64Array(1 << (2 * FOLD_BITS));
  /** Per slot: its bucket (-1 when in none) and where in the bucket. */
  bucket = new Int32Array(0);
  position = new Int32Array(0);

  constructor(bits: number) {
    this.degrees = 360 / 2 ** bits;
    this.radians = this.degrees * RADIANS_PER_DEGREE;
    this.crowd = PER_CELL * 4 ** (bits - LEVEL_BITS[LEVEL_BITS.length - 1]!);
  }

  row(latitud: number): number {
    return Math.floor(latitud / this.degrees);
  }

  column(longitud: number): number {
    return Math.floor(longitud / this.degrees);
  }

  bucketOf(row: number, column: number): number {
    return ((row & FOLD_MASK) << FOLD_BITS) | (column & FOLD_MASK);
  }

  grow(capacity: number): void {
    this.bucket = grown(this.bucket, capacity);
    this.position = grown(this.position, capacity);
  }

  link(slot: number, bucket: number): void {
    if (this.buckets[bucket] === NOBODY) this.buckets[bucket] = [];
    const members = this.buckets[bucket]!;
    this.bucket[slot] = bucket;
    this.position[slot] = members.length;
    members.push(slot);
    this.#swap(members, members.length - 1, this.fresh[bucket]!++);
  }

  unlink(slot: number): void {
    const bucket = this.bucket[slot]!;
    const members = this.buckets[bucket]!;
    if (this.position[slot]! < this.fresh[bucket]!) this.#swap(members, this.position[slot]!, --this.fresh[bucket]!);
    this.#swap(members, this.position[slot]!, members.length - 1);
    members.pop();
    if (members.length === 0) this.buckets[bucket] = NOBODY as number[];
    this.bucket[slot] = -1;
  }

  /** A new ping from a driver who stays in their bucket. */
  refresh(slot: number): void {
    const bucket = this.bucket[slot]!;
    if (this.position[slot]! >= this.fresh[bucket]!) this.#swap(this.buckets[bucket]!, this.position[slot]!, this.fresh[bucket]!++);
  }

  /** The member at `i` was reported before `freshSince`. */
  demote(bucket: number, i: number, freshSince: number): void {
    this.#swap(this.buckets[bucket]!, i, --this.fresh[bucket]!);
    this.staleBefore[bucket] = Math.max(this.staleBefore[bucket]!, freshSince);
  }

  /** For a lookup that takes positions older than some passed over as stale. */
  restore(bucket: number): void {
    this.fresh[bucket] = this.buckets[bucket]!.length;
    this.staleBefore[bucket] = 0;
  }

  /** Puts the driver in slot `from`, in a bucket, in the free slot `to` instead. */
  move(from: number, to: number): void {
    const bucket = this.bucket[from]!;
    this.buckets[bucket]![this.position[from]!] = to;
    this.bucket[to] = bucket;
    this.position[to] = this.position[from]!;
  }

  #swap(members: number[], i: number, j: number): void {
    const a = members[i]!;
    const b = members[j]!;
    members[i] = b;
    members[j] = a;
    this.position[b] = i;
    this.position[a] = j;
  }
}

function grown<T extends Int32Array | Float64Array>(array: T, capacity: number): T {
  const bigger = new (array.constructor as new (length: number) => T)(capacity);
  bigger.set(array);
  return bigger;
}

// A driver's record in a fleet: eligibility, unit vector, position and id, one cache line.
const APTO = 0;
const AT = 1;
const X = 2;
const Y = 3;
const Z = 4;
const LATITUD = 5;
const LONGITUD = 6;
const ID = 7;
const RECORD = 8;

/** The drivers of one vehicle type, in the records of slots 0 to size - 1. */
class Fleet {
  size = 0;
  records = new Float64Array(0);
  readonly entries: Entry[] = [];
  readonly grids = LEVEL_BITS.map((bits) => new Grid(bits));

  add(conductorId: number): Entry {
    if (this.size * RECORD === this.records.length) this.#grow(Math.max(64, 2 * this.size));
    const entry = { fleet: this, slot: this.size++ };
    this.entries.push(entry);
    this.records[entry.slot * RECORD + ID] = conductorId;
    for (const grid of this.grids) grid.bucket[entry.slot] = -1;
    return entry;
  }

  place(slot: number, driver: IndexedDriver): void {
    const { latitud, longitud } = driver;
    const φ = latitud * RADIANS_PER_DEGREE;
    const λ = longitud * RADIANS_PER_DEGREE;
    const record = slot * RECORD;
    this.records[record + APTO] = driver.apto_hasta.getTime();
    this.records[record + AT] = driver.at.getTime();
    this.records[record + X] = Math.cos(φ) * Math.cos(λ);
    this.records[record + Y] = Math.cos(φ) * Math.sin(λ);
    this.records[record + Z] = Math.sin(φ);
    this.records[record + LATITUD] = latitud;
    this.records[record + LONGITUD] = longitud;
    for (const grid of this.grids) {
      const bucket = grid.bucketOf(grid.row(latitud), grid.column(longitud));
      if (grid.bucket[slot] === bucket) {
        grid.refresh(slot);
        continue;
      }
      if (grid.bucket[slot]! >= 0) grid.unlink(slot);
      grid.link(slot, bucket);
    }
  }

  /** Frees the slot, moving the last driver into it so the slots stay packed. */
  remove(slot: number): void {
    for (const grid of this.grids) grid.unlink(slot);
    const last = --this.size;
    const moved = this.entries.pop()!;
    if (slot === last) return;
    this.records.copyWithin(slot * RECORD, last * RECORD, (last + 1) * RECORD);
    for (const grid of this.grids) grid.move(last, slot);
    this.entries[slot] = moved;
    moved.slot = slot;
  }

  #grow(capacity: number): void {
    this.records = grown(this.records, capacity * RECORD);
    for (const grid of this.grids) grid.grow(capacity);
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
  #fleets = new Map<VehicleType, Fleet>();
  #lookup = new Lookup();

  get size(): number {
    return this.#entries.size;
  }

  /** Adds a driver or moves them to a new position. */
  set(driver: IndexedDriver): void {
    let fleet = this.#fleets.get(driver.tipo_vehiculo);
    if (!fleet) {
      fleet = new Fleet();
      this.#fleets.set(driver.tipo_vehiculo, fleet);
    }
    let entry = this.#entries.get(driver.conductor_id);
    if (entry && entry.fleet !== fleet) {
      this.remove(driver.conductor_id);
      entry = undefined;
    }
    if (!entry) {
      entry = fleet.add(driver.conductor_id);
      this.#entries.set(driver.conductor_id, entry);
    }
    fleet.place(entry.slot, driver);
  }

  remove(conductorId: number): void {
    const entry = this.#entries.get(conductorId);
    if (!entry) return;
    this.#entries.delete(conductorId);
    entry.fleet.remove(entry.slot);
  }

  /**
   * The ids of the `limit` eligible drivers nearest to `center` within the radius, nearest first by
   * great-circle distance (as near: the lower id first), leaving out `exclude`.
   */
  nearest(center: Point, query: NearbyQuery & { limit: number; exclude?: ReadonlySet<number> }): number[] {
    const fleet = this.#fleets.get(query.tipo_vehiculo);
    if (query.limit <= 0 || !fleet?.size) return [];
    // How many are in the centre's large cell tells how dense drivers are around it.
    const { grids } = fleet;
    const coarse = grids[grids.length - 1]!;
    const around = coarse.buckets[coarse.bucketOf(coarse.row(center.latitud), coarse.column(center.longitud))]!.length;
    let level = 0;
    while (level < grids.length - 1 && around < grids[level]!.crowd) level++;
    return this.#lookup.nearest(fleet, grids[level]!, center, query);
  }

  /** How many eligible drivers are within the radius of `center`. */
  count(center: Point, query: NearbyQuery): number {
    const fleet = this.#fleets.get(query.tipo_vehiculo);
    return fleet?.size ? this.#lookup.count(fleet, fleet.grids[fleet.grids.length - 1]!, center, query) : 0;
  }
}

/** One lookup at a time, its state in fields so that walking the cells allocates nothing. */
class Lookup {
  fleet!: Fleet;
  center!: Point;
  readonly point: Point = { latitud: 0, longitud: 0 };
  // The centre: unit vector, and cosine and sine of its latitude.
  cx = 0;
  cy = 0;
  cz = 0;
  cosφ = 0;
  sinφ = 0;
  nowMs = 0;
  freshMs = 0;
  radiusKm = NaN;
  radius2 = 0;
  /** Squared chords: beyond `bound2` nobody is wanted (the radius, then the K-th found); below `inside2`, surely within the radius. */
  bound2 = 0;
  inside2 = 0;
  exclude: ReadonlySet<number> | undefined;
  /** -1 when finding the nearest; the count so far when counting. */
  counted = -1;
  // The nearest found so far: as met until `limit` are, then nearest first.
  limit = 0;
  found = 0;
  foundSlots = new Int32Array(0);
  foundChord2 = new Float64Array(0);
  // Lower bounds of the squared chord to the rows and columns at each offset from the centre's cell.
  readonly rowGaps = new Float64Array(2 * MAX_RING + 1);
  readonly columnGaps = new Float64Array(2 * MAX_RING + 1);

  nearest(fleet: Fleet, grid: Grid, center: Point, query: NearbyQuery & { limit: number; exclude?: ReadonlySet<number> }) {
    this.start(fleet, center, query);
    this.exclude = query.exclude;
    this.counted = -1;
    this.limit = Math.min(Math.ceil(query.limit), fleet.size);
    this.found = 0;
    if (this.foundSlots.length < this.limit) {
      this.foundSlots = new Int32Array(this.limit);
      this.foundChord2 = new Float64Array(this.limit);
    }
    this.walk(grid);
    if (this.found < this.limit) this.sortFound();
    const ids = new Array<number>(this.found);
    for (let i = 0; i < this.found; i++) ids[i] = fleet.records[this.foundSlots[i]! * RECORD + ID]!;
    this.fleet = this.center = this.exclude = undefined!;
    return ids;
  }

  count(fleet: Fleet, grid: Grid, center: Point, query: NearbyQuery): number {
    this.start(fleet, center, query);
    this.exclude = undefined;
    this.counted = 0;
    this.walk(grid);
    this.fleet = this.center = undefined!;
    return this.counted;
  }

  start(fleet: Fleet, center: Point, query: NearbyQuery): void {
    const φ = center.latitud * RADIANS_PER_DEGREE;
    const λ = center.longitud * RADIANS_PER_DEGREE;
    this.fleet = fleet;
    this.center = center;
    this.cosφ = Math.cos(φ);
    this.sinφ = Math.sin(φ);
    this.cx = this.cosφ * Math.cos(λ);
    this.cy = this.cosφ * Math.sin(λ);
    this.cz = this.sinφ;
    this.nowMs = query.now.getTime();
    this.freshMs = query.freshSince.getTime();
    if (query.radiusKm !== this.radiusKm) {
      this.radiusKm = query.radiusKm;
      this.radius2 = chord2Of(query.radiusKm);
    }
    this.bound2 = query.radiusKm < 0 ? -1 : slack(this.radius2);
    this.inside2 = this.radius2 * (1 - 1e-9) - 1e-18;
  }

  /**
   * Visits the cells ring by ring (ring 0 is the centre's cell), each only if it can hold someone
   * within the bound, until a whole ring is beyond it. Near the poles, or for a radius the rings
   * cannot cover, every driver of the type is looked at instead.
   */
  walk(grid: Grid): void {
    const { latitud, longitud } = this.center;
    const φ = latitud * RADIANS_PER_DEGREE;
    const λ = longitud * RADIANS_PER_DEGREE;
    const row = grid.row(latitud);
    const column = grid.column(longitud);
    // No cell that can hold anyone within the radius reaches more than `δ` from the centre's
    // latitude, so a radian of longitude there spans at least cos φ · cos(|φ| + δ) of one at the equator.
    const δ = 1.1 * Math.min(Math.PI, this.radiusKm / KM_PER_RADIAN) + 2 * grid.radians;
    const shrink = this.cosφ * Math.max(0, this.cosφ * (1 - (δ * δ) / 2) - Math.abs(this.sinφ) * δ);
    if (shrink * chord2Below(MAX_RING * grid.radians) <= this.bound2) {
      this.visitAll();
      return;
    }
    const { buckets, fresh, staleBefore, radians } = grid;
    const { records } = this.fleet;
    const { nowMs, freshMs, cx, cy, cz, rowGaps, columnGaps } = this;
    for (let ring = 0; ring <= MAX_RING; ring++) {
      const north = chord2Below(Math.max(0, (row + ring) * radians - φ));
      const south = chord2Below(Math.max(0, φ - (row + 1 - ring) * radians));
      const east = shrink * chord2Below(Math.max(0, (column + ring) * radians - λ));
      const west = shrink * chord2Below(Math.max(0, λ - (column + 1 - ring) * radians));
      if (Math.min(north, south, east, west) > this.bound2) return;
      rowGaps[MAX_RING + ring] = north;
      rowGaps[MAX_RING - ring] = south;
      columnGaps[MAX_RING + ring] = east;
      columnGaps[MAX_RING - ring] = west;
      // The ring's first and last rows whole, and the two ends of each row between.
      for (let r = -ring; r <= ring; r++) {
        const rowGap = rowGaps[MAX_RING + r]!;
        if (rowGap > this.bound2) continue;
        const step = r === -ring || r === ring ? 1 : 2 * ring;
        for (let c = -ring; c <= ring; c += step) {
          if (rowGap + columnGaps[MAX_RING + c]! > this.bound2) continue;
          const bucket = grid.bucketOf(row + r, column + c);
          if (freshMs < staleBefore[bucket]!) grid.restore(bucket);
          const members = buckets[bucket]!;
          for (let i = 0; i < fresh[bucket]!; ) {
            const slot = members[i]!;
            const record = slot * RECORD;
            if (records[record + AT]! < freshMs) {
              grid.demote(bucket, i, freshMs);
              continue;
            }
            i++;
            if (records[record + APTO]! <= nowMs) continue;
            const dx = records[record + X]! - cx;
            const dy = records[record + Y]! - cy;
            const dz = records[record + Z]! - cz;
            const chord2 = dx * dx + dy * dy + dz * dz;
            if (chord2 <= this.bound2) this.take(slot, chord2);
          }
        }
      }
    }
  }

  visitAll(): void {
    const { records } = this.fleet;
    for (let slot = 0; slot < this.fleet.size; slot++) {
      const record = slot * RECORD;
      if (records[record + APTO]! <= this.nowMs || records[record + AT]! < this.freshMs) continue;
      const dx = records[record + X]! - this.cx;
      const dy = records[record + Y]! - this.cy;
      const dz = records[record + Z]! - this.cz;
      const chord2 = dx * dx + dy * dy + dz * dz;
      if (chord2 <= this.bound2) this.take(slot, chord2);
    }
  }

  /** An eligible driver not surely beyond the bound. */
  take(slot: number, chord2: number): void {
    if (chord2 >= this.inside2 && this.km(slot) > this.radiusKm) return;
    if (this.counted >= 0) this.counted++;
    else if (!this.exclude?.has(this.fleet.records[slot * RECORD + ID]!)) this.keep(slot, chord2);
  }

  /**
   * Keeps the driver if among the `limit` nearest so far. Until `limit` are found they are only
   * gathered (in a sparse city most lookups never find that many) and put in order at once, when
   * the last place fills or the walk ends; from then on one nearer than the last is inserted.
   */
  keep(slot: number, chord2: number): void {
    if (this.found === this.limit) {
      this.replaceLast(slot, chord2);
      return;
    }
    this.foundSlots[this.found] = slot;
    this.foundChord2[this.found++] = chord2;
    if (this.found === this.limit) this.sortFound();
  }

  /** Every place is taken: the driver takes the last one's if nearer, and moves up to its place. */
  replaceLast(slot: number, chord2: number): void {
    const last = this.limit - 1;
    if (!this.nearer(slot, chord2, last)) return;
    this.insert(slot, chord2, last);
    this.bound2 = Math.min(this.bound2, slack(this.foundChord2[last]!));
  }

  /**
   * Puts those gathered in order, nearest first: by chord, those as short in the order met (by
   * insertion, which for a handful measured faster than counting each one's place), then chords
   * within a hair's breadth of each other as `nearer` has it. Once every place is taken, nobody
   * farther than the last is wanted.
   */
  sortFound(): void {
    const n = this.found;
    const { foundSlots: slots, foundChord2: chords2 } = this;
    for (let a = 1; a < n; a++) {
      const slot = slots[a]!;
      const chord2 = chords2[a]!;
      let b = a;
      for (; b > 0 && chords2[b - 1]! > chord2; b--) {
        slots[b] = slots[b - 1]!;
        chords2[b] = chords2[b - 1]!;
      }
      slots[b] = slot;
      chords2[b] = chord2;
    }
    for (let j = 1; j < n; j++) {
      if (chords2[j]! <= slack(chords2[j - 1]!)) {
        for (let k = 1; k < n; k++) this.insert(slots[k]!, chords2[k]!, k);
        break;
      }
    }
    if (n === this.limit) this.bound2 = Math.min(this.bound2, slack(chords2[n - 1]!));
  }

  /** Puts the driver in place `i`, or above it past those it is nearer than, who move down one. */
  insert(slot: number, chord2: number, i: number): void {
    const slots = this.foundSlots;
    const chords2 = this.foundChord2;
    for (; i > 0 && this.nearer(slot, chord2, i - 1); i--) {
      slots[i] = slots[i - 1]!;
      chords2[i] = chords2[i - 1]!;
    }
    slots[i] = slot;
    chords2[i] = chord2;
  }

  /** Whether the driver in `slot` is nearer than the `i`-th found, as `greatCircleKm` has it, or as near with a lower id. */
  nearer(slot: number, chord2: number, i: number): boolean {
    const other = this.foundChord2[i]!;
    if (other > slack(chord2)) return true;
    if (chord2 > slack(other)) return false;
    const otherSlot = this.foundSlots[i]!;
    const km = this.km(slot);
    const otherKm = this.km(otherSlot);
    const { records } = this.fleet;
    return km < otherKm || (km === otherKm && records[slot * RECORD + ID]! < records[otherSlot * RECORD + ID]!);
  }

  km(slot: number): number {
    this.point.latitud = this.fleet.records[slot * RECORD + LATITUD]!;
    this.point.longitud = this.fleet.records[slot * RECORD + LONGITUD]!;
    return greatCircleKm(this.center, this.point);
  }
}
