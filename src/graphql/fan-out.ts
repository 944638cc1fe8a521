import type { ExecutionResult, GraphQLError } from "graphql";
import type { Logger } from "../domain/deps.js";
import { DELEGATED, type Operation, type Outcome } from "./transport-ws.js";

/**
 * Subscriptions shared between graphql-ws subscribers. Thousands of sockets watching one trip
 * would otherwise each execute and serialise every event: here one execution per event is
 * serialised once and the same bytes go to every subscriber's operation, wrapped as its own
 * `next`. The caller decides which subscriptions may share a key (see websocket.ts).
 */

// Operations written per turn of the event loop, so that a large broadcast does not hold it up throughout.
const SLICE = 256;

interface Source {
  key: string;
  /** The subscription's root field, which each listener is counted under. */
  field: string;
  listeners: Set<Operation>;
  /** Takes a listener off; the last one out closes the source, since nobody needs its events any more. */
  leave: (listener: Operation) => void;
  /** Whether the first subscriber's subscription opened (false when it was answered with a result, a refusal say). */
  opened: Promise<boolean>;
  iterator?: AsyncIterator<ExecutionResult>;
}

export function createFanOut(log: Logger, mask: (error: unknown) => GraphQLError) {
  const sources = new Map<string, Source>();

  const forget = (source: Source) => {
    if (sources.get(source.key) === source) sources.delete(source.key);
  };

  async function close(source: Source) {
    forget(source);
    try {
      await source.iterator?.return?.();
    } catch (error) {
      log.error({ err: error }, "could not close a shared subscription");
    }
  }

  function listen(source: Source, operation: Operation): typeof DELEGATED {
    operation.writer = source;
    operation.field = source.field;
    source.listeners.add(operation);
    return DELEGATED;
  }

  async function broadcast(source: Source, payload: string) {
    let written = 0;
    for (const listener of [...source.listeners]) {
      // One that stopped during an earlier slice has left the source.
      if (!source.listeners.has(listener)) continue;
      listener.next(payload);
      if (++written % SLICE === 0) await new Promise((resolve) => setImmediate(resolve));
    }
  }

  /** Every event, executed once, to every listener; then the listeners end with the source. */
  async function pump(source: Source, iterator: AsyncIterator<ExecutionResult>) {
    let errors: GraphQLError[] | undefined;
    try {
      for (let step = await iterator.next(); !step.done; step = await iterator.next()) {
        await broadcast(source, JSON.stringify(step.value));
      }
    } catch (error) {
      // Masked once for every listener: logged once, or counted in the database's outage.
      errors = [mask(error)];
    }
    forget(source);
    // Only now: every `next` of this source has been written before each listener's `complete`.
    for (const listener of source.listeners) listener.end(errors);
  }

  return {
    /**
     * `operation` made a listener of the source already open (or opening) for `key`; null when
     * there is none, or it did not open.
     */
    async join(key: string, operation: Operation): Promise<typeof DELEGATED | null> {
      const source = sources.get(key);
      if (!source || !(await source.opened) || sources.get(key) !== source) return null;
      return listen(source, operation);
    },

    /**
     * Runs `subscribe` for the first subscriber of `key`. A stream becomes the shared source, and
     * this subscriber its first listener; any other result (a refusal, errors) is theirs alone,
     * returned as it is. Subscribers of `key` arriving meanwhile wait for it rather than open their own.
     */
    async open(key: string, field: string, operation: Operation, subscribe: () => Promise<Outcome>): Promise<Outcome> {
      // Another source took the key while this subscriber waited on one that was refused: this one runs alone.
      if (sources.has(key)) return subscribe();
      let opened!: (ok: boolean) => void;
      const source: Source = {
        key,
        field,
        listeners: new Set(),
        leave: (listener) => {
          if (source.listeners.delete(listener) && source.listeners.size === 0) void close(source);
        },
        opened: new Promise((resolve) => (opened = resolve)),
      };
      sources.set(key, source);
      try {
        const outcome = await subscribe();
        if (typeof outcome !== "object" || !(Symbol.asyncIterator in outcome)) return outcome;
        source.iterator = outcome[Symbol.asyncIterator]();
        void pump(source, source.iterator);
        return listen(source, operation);
      } finally {
        if (!source.iterator) forget(source);
        opened(source.iterator !== undefined);
      }
    },

    /** Closes every shared source, at shutdown; their remaining listeners end with them. */
    async close() {
      await Promise.all([...sources.values()].map(close));
    },
  };
}
