import { setTimeout as sleep } from "node:timers/promises";
import type { Answer } from "./client.js";
import type { Random } from "./random.js";

/**
 * Whether an answer settles a request: any answer below 500 but a 409 (the first request with the
 * key still runs, or what it did is not visible yet) and a 429. No answer, a 5xx, a 409 or a 429
 * are retried.
 */
const settles = (answer: Answer) => answer.status !== null && answer.status < 500 && answer.status !== 409 && answer.status !== 429;

export interface Retried {
  /** The settling answer; null when none came before the deadline (or the run halted). */
  answer: Answer | null;
  /** Every answer, the settling one included. */
  answers: Answer[];
  /** From the first call to the settling answer. */
  ms: number;
}

/**
 * Sends the same request until an answer settles it, each retry to another process than the one
 * before, after a pause of 0.5 to 1.5 s.
 */
export async function untilSettled(
  send: (avoid: number | undefined) => Promise<Answer>,
  options: { deadlineMs: number; random: Random; halted?: () => boolean; settled?: (answer: Answer) => boolean },
): Promise<Retried> {
  const { deadlineMs, random, halted = () => false, settled = settles } = options;
  const started = performance.now();
  const answers: Answer[] = [];
  let avoid: number | undefined;
  for (;;) {
    const answer = await send(avoid);
    answers.push(answer);
    if (settled(answer)) return { answer, answers, ms: performance.now() - started };
    if (halted() || performance.now() - started > deadlineMs) return { answer: null, answers, ms: performance.now() - started };
    avoid = answer.process;
    await sleep(random.between(500, 1500));
  }
}
