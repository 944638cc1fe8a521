import type { AttemptCounter } from "../deps.js";
import { RateLimitError } from "../errors.js";

/** The refusal (429) of an attempt over its limit, saying how long until the next one is let through. */
export function overLimit(message: string, waitMs: number): RateLimitError {
  const seconds = Math.ceil(waitMs / 1000);
  return new RateLimitError(`${message}; intenta de nuevo en ${seconds} segundos`, seconds);
}

/** Counts an attempt and refuses it (429) when the key is over its limit. */
export async function throttle(counter: AttemptCounter, key: string, message: string): Promise<void> {
  const waitMs = await counter.hit(key);
  if (waitMs > 0) throw overLimit(message, waitMs);
}
