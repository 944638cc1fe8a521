import type { Clock } from "../../src/domain/deps.js";

/** A clock that only moves when told to. */
export class FixedClock implements Clock {
  #now: Date;
  constructor(start: string | Date = "2026-03-10T15:00:00.000Z") {
    this.#now = new Date(start);
  }
  now(): Date {
    return new Date(this.#now);
  }
  set(instant: string | Date): void {
    this.#now = new Date(instant);
  }
  advance(ms: number): void {
    this.#now = new Date(this.#now.getTime() + ms);
  }
}
