import type { Redis } from "ioredis";
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from "rate-limiter-flexible";
import type { AttemptCounter } from "../domain/deps.js";

interface CounterOptions {
  name: string;
  limit: number;
  windowS: number;
  /** Shared counts across processes; without it they are this process's own. */
  redis: Redis | null;
  prefix: string;
}

/** Attempts counted in fixed windows: in Redis when there is one (this process's memory stands in while it is down), else in memory. */
export function attemptCounter({ name, limit, windowS, redis, prefix }: CounterOptions): AttemptCounter {
  const options = { keyPrefix: `${prefix}${name}`, points: limit, duration: windowS };
  const memory = new RateLimiterMemory(options);
  const limiter = redis
    ? new RateLimiterRedis({ ...options, storeClient: redis, rejectIfRedisNotReady: true, insuranceLimiter: memory })
    : memory;
  return {
    async hit(key) {
      try {
        await limiter.consume(key);
        return 0;
      } catch (rejection) {
        if (rejection instanceof RateLimiterRes) return Math.max(1, rejection.msBeforeNext);
        throw rejection;
      }
    },
    async reset(key) {
      await limiter.delete(key);
    },
    async refund(key) {
      await limiter.reward(key, 1);
    },
  };
}
