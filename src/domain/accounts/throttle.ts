import type { AttemptCounter } from "../deps.js";
import { RateLimitError } from "../errors.js";

/** Counts an attempt and refuses it (429) when the key is over its limit. */
export async function throttle(counter: AttemptCounter, key: string, message: string): Promise<void> {
  const waitMs = await counter.hit(key);
  if (waitMs > 0) {
    const seconds = Math.ceil(waitMs / 1000);
    throw new RateLimitError(`${message}; intenta de nuevo en ${seconds} segundos`, seconds);
  }
}
