import { createPubSub } from "graphql-yoga";
import type { Redis } from "ioredis";
import type { EventMap } from "../domain/events.js";

/** Topics whose missed events can be read again from the database (see src/background/catch-up.ts and sos-sweep.ts). */
type LocalTopic = "viaje" | "solicitud_viaje" | "sos";

export interface AppEvents {
  pubsub: ReturnType<typeof createPubSub<EventMap>>;
  /** The connection that publishes, free for other shared state (attempt counters); null without Redis. */
  redis: Redis | null;
  /** Rejects, saying why, while events cannot reach the other processes. */
  ping(): Promise<void>;
  /**
   * Runs `callback` each time Redis is back after being away (or unreachable at start-up): what
   * other processes announced meanwhile never arrived.
   */
  onRecovered(callback: () => void): void;
  /** Ids of a per-id topic with a listener on this process (`viaje`: the trips followed here). */
  listening(topic: LocalTopic): number[];
  /** Hands an event to this process's own listeners only, as if it had come through Redis. */
  deliverHere<K extends LocalTopic>(topic: K, ...args: EventMap[K]): void;
  /** For the metrics: whether events reach every process now, and how many never reached the others. */
  status(): { mode: "redis" | "in-process"; connected: boolean; lost: number };
  close(): Promise<void>;
}

/** Events within this process only: the embedded mode, one process. */
export const inProcessEvents = (): AppEvents => ({
  pubsub: createPubSub<EventMap>(),
  redis: null,
  ping: async () => undefined,
  onRecovered: () => undefined,
  // Never away: nothing is missed, so nothing is caught up on.
  listening: () => [],
  deliverHere: () => undefined,
  status: () => ({ mode: "in-process", connected: true, lost: 0 }),
  close: async () => undefined,
});
