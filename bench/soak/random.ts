/** The run's choices (who asks where, when chaos strikes) from one seed, so that `--seed` replays them. */
export interface Random {
  /** In [0, 1). */
  next(): number;
  /** In [min, max). */
  between(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
  /** A fresh generator for one actor, so that actors do not draw from one another's sequence. */
  fork(): Random;
}

/** mulberry32: small, fast and good enough for a simulation. */
export function seeded(seed: number): Random {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    between: (min, max) => min + next() * (max - min),
    pick: (items) => items[Math.floor(next() * items.length)]!,
    fork: () => seeded(Math.floor(next() * 4294967296)),
  };
}
