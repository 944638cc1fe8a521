import { createPubSub } from "graphql-yoga";
import { createRedisEventTarget } from "@graphql-yoga/redis-event-target";
import { Redis } from "ioredis";
import type { EventMap } from "../domain/events.js";

/**
 * Dates survive the trip through Redis as dates: JSON alone would turn them into strings.
 * The replacer reads `this[key]` because JSON.stringify has already called toJSON on `value`.
 */
export const eventSerializer = {
  stringify: (message: unknown) =>
    JSON.stringify(message, function (this: Record<string, unknown>, key, value) {
      const original = this[key];
      return original instanceof Date ? { $fecha: original.toISOString() } : value;
    }),
  parse: (text: string) =>
    JSON.parse(text, (_key, value) =>
      value && typeof value === "object" && Object.keys(value).length === 1 && typeof value.$fecha === "string"
        ? new Date(value.$fecha)
        : value,
    ),
};

type EventTarget = ReturnType<typeof createRedisEventTarget>;

/** Channel names start with `prefix`, so several deployments (or test runs) can share one Redis. */
function withPrefix(target: EventTarget, prefix: string): EventTarget {
  return {
    addEventListener: (type, listener) => target.addEventListener(`${prefix}${type}`, listener),
    removeEventListener: (type, listener) => target.removeEventListener(`${prefix}${type}`, listener),
    dispatchEvent: (event) => target.dispatchEvent(new CustomEvent(`${prefix}${event.type}`, { detail: event.detail })),
  };
}

/**
 * In-process by default; through Redis pub/sub when a URL is given, so every process hears every
 * event. `redis` is the connection that publishes, free for other shared state (attempt counters).
 */
export async function createEvents(redisUrl?: string, prefix = "") {
  if (!redisUrl) {
    return { pubsub: createPubSub<EventMap>(), redis: null, ping: async () => undefined, close: async () => undefined };
  }
  // Connected before anything subscribes: a SUBSCRIBE sent while ioredis is still checking the
  // connection puts it in subscriber mode and its readiness check then fails.
  const connect = async () => {
    const client = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 3 });
    await client.connect();
    return client;
  };
  const [publishClient, subscribeClient] = await Promise.all([connect(), connect()]);
  const eventTarget = withPrefix(createRedisEventTarget({ publishClient, subscribeClient, serializer: eventSerializer }), prefix);
  return {
    pubsub: createPubSub<EventMap>({ eventTarget: eventTarget as never }),
    redis: publishClient,
    ping: async () => {
      await publishClient.ping();
    },
    close: async () => {
      await Promise.all([publishClient.quit(), subscribeClient.quit()]);
    },
  };
}
