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

/** In-process by default; through Redis pub/sub when a URL is given, so every process hears every event. */
export function createEvents(redisUrl?: string) {
  if (!redisUrl) {
    return { pubsub: createPubSub<EventMap>(), ping: async () => undefined, close: async () => undefined };
  }
  const publishClient = new Redis(redisUrl, { lazyConnect: false, maxRetriesPerRequest: 3 });
  const subscribeClient = new Redis(redisUrl, { lazyConnect: false, maxRetriesPerRequest: 3 });
  const eventTarget = createRedisEventTarget({ publishClient, subscribeClient, serializer: eventSerializer });
  return {
    pubsub: createPubSub<EventMap>({ eventTarget: eventTarget as never }),
    ping: async () => {
      await publishClient.ping();
    },
    close: async () => {
      await Promise.all([publishClient.quit(), subscribeClient.quit()]);
    },
  };
}

export type EventsHub = ReturnType<typeof createEvents>;
