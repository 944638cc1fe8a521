import { randomUUID } from "node:crypto";
import type { Point } from "../geo.js";
import type { VehicleType } from "../service-types.js";
import { DriverGeoIndex } from "./geo-index.js";

/**
 * What every process knows about a driver who is online or on a trip, decided from the database
 * when the driver goes online and again whenever something that decides it changes (approval,
 * documents, account, trips). A ping from a known driver needs no query at all.
 */
export interface Presence {
  conductor_id: number;
  tipo_vehiculo: VehicleType;
  /** The first of the driver's documents to expire: trips may be offered until then. */
  apto_hasta: Date;
  /** Free for trips; false while the driver has one. */
  disponible: boolean;
  viaje_activo_id: number | null;
  /** The last reported position, if any. */
  posicion: (Point & { at: Date }) | null;
}

export interface PositionReport extends Point {
  conductor_id: number;
  at: Date;
}

/**
 * The known drivers of one process, the geo index of those free for trips, and the positions
 * reported to this process that the database, and the other processes, have not had yet.
 */
export class DriverPresence {
  readonly index = new DriverGeoIndex();
  /** Names this process in the events it publishes, so it does not apply its own twice. */
  readonly origin = randomUUID();
  #known = new Map<number, Presence>();
  #unsaved = new Map<number, PositionReport>();
  #unannounced = new Map<number, PositionReport>();
  #complete = false;

  get(conductorId: number): Presence | undefined {
    return this.#known.get(conductorId);
  }

  /**
   * Whether every driver online is known: not before the database's list is loaded, nor after
   * forgetting all until it is loaded again. Until then, finding nobody proves nothing.
   */
  get complete(): boolean {
    return this.#complete;
  }

  /** The database's list of drivers online has been applied (see forgetAll). */
  loaded(): void {
    this.#complete = true;
  }

  /** Every known driver, to read (the metrics count them). */
  all(): IterableIterator<Readonly<Presence>> {
    return this.#known.values();
  }

  /** Records what was decided about a driver; null forgets them (their next ping decides again). */
  decide(conductorId: number, presence: Presence | null): void {
    // The database gets positions in batches, so what was decided from it may be behind.
    const heard = this.#known.get(conductorId)?.posicion;
    if (presence && heard && (!presence.posicion || heard.at > presence.posicion.at)) presence = { ...presence, posicion: heard };
    if (presence) this.#known.set(conductorId, presence);
    else this.#known.delete(conductorId);
    this.#place(conductorId);
  }

  /**
   * Forgets every driver, when what other processes announced may have been missed (Redis away):
   * what the database says is loaded again, and each driver's next ping decides meanwhile. The
   * positions still owed to the database and the other processes are kept.
   */
  forgetAll(): void {
    this.#complete = false;
    for (const conductorId of this.#known.keys()) this.index.remove(conductorId);
    this.#known.clear();
  }

  /** A known driver's new position; `heardHere` when this process owes it to the database and the others. */
  move(report: PositionReport, heardHere: boolean): void {
    const presence = this.#known.get(report.conductor_id);
    if (!presence) return;
    if (presence.posicion && presence.posicion.at > report.at) return;
    presence.posicion = { latitud: report.latitud, longitud: report.longitud, at: report.at };
    if (heardHere) {
      this.#unsaved.set(report.conductor_id, report);
      this.#unannounced.set(report.conductor_id, report);
    }
    this.#place(report.conductor_id);
  }

  /** The positions to store, each driver's latest once; taking them empties the list. */
  takeUnsaved(): PositionReport[] {
    return take(this.#unsaved);
  }

  /** Puts back positions that could not be stored, unless newer ones came meanwhile. */
  keepUnsaved(reports: PositionReport[]): void {
    for (const report of reports) if (!this.#unsaved.has(report.conductor_id)) this.#unsaved.set(report.conductor_id, report);
  }

  /** The positions to tell the other processes, likewise. */
  takeUnannounced(): PositionReport[] {
    return take(this.#unannounced);
  }

  #place(conductorId: number): void {
    const presence = this.#known.get(conductorId);
    if (!presence?.disponible || !presence.posicion) {
      this.index.remove(conductorId);
      return;
    }
    const { tipo_vehiculo, apto_hasta, posicion } = presence;
    this.index.set({ conductor_id: conductorId, tipo_vehiculo, apto_hasta, ...posicion });
  }
}

function take(reports: Map<number, PositionReport>): PositionReport[] {
  const taken = [...reports.values()];
  reports.clear();
  return taken;
}
