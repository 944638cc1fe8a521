/**
 * At most `limit` requests are served at once; the next ones wait in line, and one that has
 * waited `maxWaitMs` (or finds `LINE` times `limit` waiting) is turned away with 503. A
 * saturated database then sheds load in a second instead of letting every request queue for
 * its own timeout and fail with a 500.
 */
// Past this many waiting per request served, the line could not move in time anyway.
const LINE = 4;

export class Admission {
  #active = 0;
  #line: Array<(admitted: boolean) => void> = [];

  constructor(
    private readonly limit: number,
    private readonly maxWaitMs: number,
  ) {}

  /** Resolves true once the request may be served (call `leave` when it is done), false when it is turned away. */
  enter(): Promise<boolean> {
    if (this.#active < this.limit) {
      this.#active++;
      return Promise.resolve(true);
    }
    if (this.#line.length >= LINE * this.limit) return Promise.resolve(false);
    return new Promise((resolve) => {
      const turn = (admitted: boolean) => {
        clearTimeout(timer);
        resolve(admitted);
      };
      const timer = setTimeout(() => {
        this.#line.splice(this.#line.indexOf(turn), 1);
        turn(false);
      }, this.maxWaitMs);
      this.#line.push(turn);
    });
  }

  leave(): void {
    const next = this.#line.shift();
    if (next) next(true);
    else this.#active--;
  }
}
