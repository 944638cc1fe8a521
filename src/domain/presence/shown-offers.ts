import { afterCommit } from "../../db/unit.js";

type Offer = { viaje_id: number; conductor_id: number };

// A driver polls every 5 s and sees the same few requests each time; this many pairs covers every
// request open at once in a large city.
const MOST = 100_000;

/**
 * The offers (a request shown to a driver) this process knows are recorded. An offer is recorded
 * once and never removed while its trip exists (trip ids are never reused), so one known here
 * needs no write when the driver is shown the request again: the write would change nothing.
 */
export class ShownOffers {
  #known = new Set<string>();

  /** Those of `offers` not known to be recorded yet. */
  unrecorded(offers: Offer[]): Offer[] {
    return offers.filter((offer) => !this.#known.has(key(offer)));
  }

  /** Remembers `offers` once what recorded them is committed (never, if it is undone). */
  recorded(offers: Offer[]): void {
    afterCommit(() => {
      for (const offer of offers) {
        if (this.#known.size >= MOST) this.#known.delete(this.#known.values().next().value!);
        this.#known.add(key(offer));
      }
    });
  }
}

const key = (offer: Offer) => `${offer.viaje_id}:${offer.conductor_id}`;
