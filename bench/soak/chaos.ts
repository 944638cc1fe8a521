import { setTimeout as sleep } from "node:timers/promises";
import { progress } from "./lifecycle.js";
import type { ChaosPlan } from "./options.js";
import type { Random } from "./random.js";
import type { Stack } from "./stack.js";

type Kind = "kill" | "redis" | "postgres";

/** One blow, as it went. */
export interface Blow {
  kind: Kind;
  /** Milliseconds into the run. */
  at: number;
  /** From the blow to what it stopped being back (a process listening, Redis up, PostgreSQL accepting). */
  downMs: number;
  detail: string;
}

/**
 * When each kind strikes: about every `everyS`, each time jittered by up to a fifth of that; at
 * least once, in the middle of the run, when the run is shorter than the period. Nothing strikes in
 * the last 10 s, so that the grace period starts with everything back.
 */
export function plan(chaos: ChaosPlan, durationS: number, random: Random): Array<{ kind: Kind; atMs: number }> {
  const times = (everyS: number) => {
    const found: number[] = [];
    for (let k = 1; ; k++) {
      const at = k * everyS + random.between(-everyS / 5, everyS / 5);
      if (at > durationS - 10) break;
      found.push(at);
    }
    return found.length > 0 ? found : [durationS * random.between(0.3, 0.7)];
  };
  return [
    ...times(chaos.killEveryS).map((at) => ({ kind: "kill" as const, atMs: at * 1000 })),
    ...times(chaos.redisEveryS).map((at) => ({ kind: "redis" as const, atMs: at * 1000 })),
    ...times(chaos.pgEveryS).map((at) => ({ kind: "postgres" as const, atMs: at * 1000 })),
  ].sort((a, b) => a.atMs - b.atMs);
}

/**
 * Strikes as planned, from `startedAt`: `kill -9` of a random process that is up (started again
 * after a few seconds), Redis killed and started again, `pg_ctl restart -m immediate`. The kinds
 * run side by side, so blows may overlap as they would in life; each kind waits for its previous
 * blow to heal. Resolves once the last blow has healed.
 */
export async function unleash(
  stack: Stack,
  chaos: ChaosPlan,
  planned: ReturnType<typeof plan>,
  random: Random,
  startedAt: number,
): Promise<Blow[]> {
  const blows: Blow[] = [];
  const strike = async (kind: Kind, atMs: number) => {
    const at = Date.now() - startedAt;
    if (atMs > at) await sleep(atMs - at);
    const started = Date.now();
    let detail: string;
    if (kind === "kill") {
      const up = stack.up();
      // Never the last process up: a city with no process at all measures nothing.
      if (up.length < 2) return;
      const victim = random.pick(up);
      await victim.kill();
      progress(`kill -9 process ${victim.index}`);
      await sleep(random.between(...chaos.killDownS) * 1000);
      const back = await victim.startUntilUp(60_000);
      detail = `process ${victim.index}${back ? "" : ", not started again within 60 s"}`;
    } else if (kind === "redis") {
      await stack.redis.stop();
      progress("Redis killed");
      await sleep(random.between(...chaos.redisDownS) * 1000);
      await stack.redis.start();
      detail = "killed, started again";
    } else {
      progress("pg_ctl restart -m immediate");
      await stack.pg.restart("immediate");
      detail = "restart -m immediate";
    }
    const downMs = Date.now() - started;
    blows.push({ kind, at: started - startedAt, downMs, detail });
    progress(`${kind}: back after ${(downMs / 1000).toFixed(1)} s`);
  };
  const kinds: Kind[] = ["kill", "redis", "postgres"];
  await Promise.all(
    kinds.map(async (kind) => {
      for (const { atMs } of planned.filter((blow) => blow.kind === kind)) await strike(kind, atMs);
    }),
  );
  return blows.sort((a, b) => a.at - b.at);
}
