import { createPubSub } from "graphql-yoga";
import { Redis } from "ioredis";
import type { Logger } from "../domain/deps.js";
import type { EventMap } from "../domain/events.js";
import type { AppEvents } from "./bus.js";

/**
 * Dates survive the trip through Redis as dates: JSON alone would turn them into strings.
 * The replacer reads `this[key]` because JSON.stringify has already called toJSON on `value`.
 */
const eventSerializer = {
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

/** How long start-up waits for Redis before serving without it. */
const CONNECT_WAIT_MS = 5000;
/** At most one warning per problem this often while Redis stays away, not one per event. */
const WARN_EVERY_MS = 10_000;
/** Longest a command waits: a connection that died without closing holds no login or publish longer. */
const COMMAND_TIMEOUT_MS = 1000;
/** Channels per SUBSCRIBE when subscribing again after a reconnection. */
const SUBSCRIBE_BATCH = 1000;

type Listener = (event: CustomEvent) => void;
type ListenerOption = Listener | { handleEvent: Listener } | null;

const callbackOf = (option: ListenerOption) => (option && "handleEvent" in option ? option.handleEvent : option);

/** A problem in a few words, for logs and /readyz: "ECONNREFUSED" rather than the address. */
const describe = (error: Error) => (error as NodeJS.ErrnoException).code || error.message || error.name;

/** Logs each message at most once per `everyMs`, saying how many times it was held back meanwhile. */
function throttledWarn(log: Logger, everyMs: number) {
  const last = new Map<string, { at: number; held: number }>();
  return (fields: object, message: string) => {
    const now = Date.now();
    const seen = last.get(message);
    if (seen && now - seen.at < everyMs) {
      seen.held++;
      return;
    }
    log.warn(seen?.held ? { ...fields, held_back: seen.held } : fields, message);
    last.set(message, { at: now, held: 0 });
  };
}

/**
 * Events through Redis, which the process does without while it is away: a publish never throws
 * nor waits; events meant for other processes are then lost (logged, rate-limited), while this
 * process's own listeners still hear its events, at once. Channels are subscribed again on every
 * reconnection, and `onRecovered` callbacks run once both connections are back and subscribed.
 * Not @graphql-yoga/redis-event-target: it leaves the promises of publish, subscribe and
 * unsubscribe unhandled, and one rejected while Redis is down ends the process.
 */
export async function redisEvents(url: string, prefix: string, log: Logger): Promise<AppEvents> {
  // No offline queue: while a connection is down its commands fail at once (a publish is dropped,
  // a login counted in memory) instead of piling up for a Redis that may be long in coming back.
  const options = { enableOfflineQueue: false, maxRetriesPerRequest: 3 };
  const publisher = new Redis(url, { ...options, commandTimeout: COMMAND_TIMEOUT_MS });
  // Re-subscribed below, with its promise handled: ioredis's own re-subscription leaves it unhandled.
  const subscriber = new Redis(url, { ...options, autoResubscribe: false });

  const warn = throttledWarn(log, WARN_EVERY_MS);
  const listeners = new Map<string, Set<Listener>>();
  const recovered = new Set<() => void>();
  /** Status changes, for whoever waits on them (start-up). */
  const changed = new Set<() => void>();
  let closing = false;
  /** The subscriber connection is subscribed to every channel that has listeners. */
  let synced = false;
  /** Counts subscriber connections, so that a late answer to an earlier one's SUBSCRIBE is ignored. */
  let generation = 0;
  let away = false;
  let lostEvents = 0;
  /** Every event lost since start-up; `lostEvents` counts those of the current outage. */
  let lostTotal = 0;
  let problem: string | null = null;

  const healthy = () => publisher.status === "ready" && subscriber.status === "ready" && synced;
  const notify = () => {
    for (const callback of changed) callback();
  };

  const deliver = (channel: string, detail: unknown) => {
    const callbacks = listeners.get(channel);
    if (!callbacks) return;
    const event = new CustomEvent(channel, { detail });
    for (const callback of [...callbacks]) {
      try {
        callback(event);
      } catch (error) {
        log.error({ err: error, channel }, "an event listener failed");
      }
    }
  };

  const lost = (channel: string, error?: unknown) => {
    lostEvents++;
    lostTotal++;
    // During an outage they are counted, and told once it ends.
    if (!away) warn({ err: error, channel, lost_events: lostEvents }, "events not sent to other processes: Redis is unavailable");
  };

  function settle() {
    notify();
    if (!away || !healthy()) return;
    away = false;
    problem = null;
    log.info({ lost_events: lostEvents }, "Redis is back: events flow between processes again");
    lostEvents = 0;
    for (const callback of recovered) {
      try {
        callback();
      } catch (error) {
        log.error({ err: error }, "a recovery callback failed");
      }
    }
  }

  const goneAway = () => {
    if (!closing && !away) {
      away = true;
      log.warn({ problem: problem ?? undefined }, "Redis unavailable: events to and from other processes are lost until it returns");
    }
    notify();
  };

  // Before `goneAway` below, so that nobody it notifies sees a closed connection as subscribed.
  subscriber.on("close", () => {
    synced = false;
    generation++;
  });
  for (const client of [publisher, subscriber]) {
    client.on("error", (error: Error) => {
      problem = describe(error);
      // Reconnection attempts fail until Redis is back: the outage was told once, with its problem.
      if (!closing && !away) warn({ err: error }, "Redis connection error");
    });
    client.on("close", goneAway);
  }
  publisher.on("ready", settle);
  subscriber.on("ready", () => {
    const current = ++generation;
    const channels = [...listeners.keys()];
    const batches: Array<Promise<unknown>> = [];
    for (let i = 0; i < channels.length; i += SUBSCRIBE_BATCH)
      batches.push(subscriber.subscribe(...channels.slice(i, i + SUBSCRIBE_BATCH)));
    Promise.all(batches).then(
      () => {
        if (current !== generation) return;
        synced = true;
        settle();
      },
      (error: unknown) => {
        if (current !== generation || closing) return;
        warn({ err: error }, "could not subscribe to the event channels; reconnecting");
        // A new connection subscribes afresh; this one would miss events for good.
        subscriber.disconnect(true);
      },
    );
  });
  subscriber.on("message", (channel: string, message: string) => {
    let detail: unknown;
    try {
      detail = message === "" ? null : eventSerializer.parse(message);
    } catch (error) {
      warn({ err: error, channel }, "ignored an event that is not JSON");
      return;
    }
    deliver(channel, detail);
  });

  const eventTarget = {
    addEventListener(type: string, option: ListenerOption) {
      const callback = callbackOf(option);
      if (!callback) return;
      const channel = `${prefix}${type}`;
      let callbacks = listeners.get(channel);
      if (!callbacks) {
        callbacks = new Set();
        listeners.set(channel, callbacks);
        // While the connection is down, it subscribes with every other channel once it is back.
        if (subscriber.status === "ready") {
          subscriber.subscribe(channel).catch((error: unknown) => {
            // Lost with the connection: every channel is subscribed again once it is back.
            if (!away) warn({ err: error, channel }, "could not subscribe to an event channel");
          });
        }
      }
      callbacks.add(callback);
    },
    removeEventListener(type: string, option: ListenerOption) {
      const callback = callbackOf(option);
      const channel = `${prefix}${type}`;
      const callbacks = listeners.get(channel);
      if (!callback || !callbacks) return;
      callbacks.delete(callback);
      if (callbacks.size > 0) return;
      listeners.delete(channel);
      // A connection that is down holds no subscriptions, and the next one will not make this one.
      if (subscriber.status === "ready") {
        subscriber
          .unsubscribe(channel)
          .catch((error: unknown) => warn({ err: error, channel }, "could not unsubscribe from an event channel"));
      }
    },
    dispatchEvent(event: CustomEvent) {
      const channel = `${prefix}${event.type}`;
      // Through Redis this process hears its own events back; while it cannot, it hears them here.
      if (!healthy()) deliver(channel, event.detail);
      if (publisher.status !== "ready") {
        lost(channel);
        return true;
      }
      let message: string;
      try {
        message = event.detail === undefined ? "" : eventSerializer.stringify(event.detail);
      } catch (error) {
        log.error({ err: error, channel }, "could not serialise an event");
        return true;
      }
      publisher.publish(channel, message).catch((error: unknown) => lost(channel, error));
      return true;
    },
  };

  // Serves without Redis if it is not there at once; it is connected to as soon as it is.
  await new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      changed.delete(check);
      resolve();
    };
    const check = () => {
      if (healthy() || away) done();
    };
    const timer = setTimeout(done, CONNECT_WAIT_MS);
    changed.add(check);
  });
  if (!healthy()) goneAway();

  return {
    pubsub: createPubSub<EventMap>({ eventTarget: eventTarget as never }),
    redis: publisher,
    ping: async () => {
      if (!healthy()) {
        const state = publisher.status !== "ready" ? publisher.status : subscriber.status !== "ready" ? subscriber.status : "subscribing";
        throw new Error(`not connected (${state}${problem ? `: ${problem}` : ""})`);
      }
      await publisher.ping();
    },
    onRecovered: (callback) => {
      recovered.add(callback);
    },
    listening: (topic) => {
      const start = `${prefix}${topic}:`;
      return [...listeners.keys()].filter((channel) => channel.startsWith(start)).map((channel) => Number(channel.slice(start.length)));
    },
    deliverHere: (topic, id, payload) => deliver(`${prefix}${topic}:${id}`, payload),
    status: () => ({ mode: "redis", connected: healthy(), lost: lostTotal }),
    close: async () => {
      closing = true;
      const end = async (client: Redis) => {
        // QUIT needs a connection; without one, stop reconnecting.
        if (client.status === "ready") await client.quit().catch(() => client.disconnect());
        else client.disconnect();
      };
      await Promise.all([end(publisher), end(subscriber)]);
    },
  };
}
