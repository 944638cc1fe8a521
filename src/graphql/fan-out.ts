import type { ExecutionResult } from "graphql";
import { WebSocket } from "ws";
import type { Logger } from "../domain/deps.js";
import { isBusyError } from "../http/overload.js";

/**
 * Subscriptions shared between graphql-ws subscribers. Thousands of sockets watching one trip
 * would otherwise each execute and serialise every event: here one execution per event is
 * serialised once and the same bytes go to every socket, wrapped as that socket's own `next`.
 * The caller decides which subscriptions may share a key (see websocket.ts).
 */

// Sockets written per turn of the event loop, so that a large broadcast does not hold it up throughout.
const SLICE = 256;

type Outcome = ExecutionResult | AsyncIterable<ExecutionResult>;
const DONE: IteratorReturnResult<undefined> = { done: true, value: undefined };

interface Source<T> {
  key: string;
  /** What a joiner's execution arguments are made of: the document the first subscriber had validated. */
  args: T;
  listeners: Set<Listener>;
  /** Takes a listener off; the last one out closes the source, since nobody needs its events any more. */
  leave: (listener: Listener) => void;
  /** Whether the first subscriber's subscription opened (false when it was answered with a result, a refusal say). */
  opened: Promise<boolean>;
  iterator?: AsyncIterator<ExecutionResult>;
}

/**
 * One subscriber, as graphql-ws sees it: an iterator that yields nothing (the source writes the
 * `next` messages itself) and ends with the source, so graphql-ws then sends `complete`, or when
 * graphql-ws returns it (the client's `complete`, or its socket closing).
 */
class Listener implements AsyncIterableIterator<never> {
  ended = false;
  private failure: unknown;
  private wake?: { resolve: (result: IteratorReturnResult<undefined>) => void; reject: (error: unknown) => void };

  constructor(
    readonly socket: WebSocket,
    /** The start of this subscription's `next` message; the shared payload and "}" complete it. */
    readonly prefix: string,
    private readonly leave: (listener: Listener) => void,
  ) {}

  next(): Promise<IteratorResult<never>> {
    if (this.ended) return this.failure === undefined ? Promise.resolve(DONE) : Promise.reject(this.failure);
    return new Promise((resolve, reject) => (this.wake = { resolve, reject }));
  }

  return(): Promise<IteratorResult<never>> {
    this.end();
    this.leave(this);
    return Promise.resolve(DONE);
  }

  [Symbol.asyncIterator]() {
    return this;
  }

  /** Ends this subscription: completed, or failed with `failure` (graphql-ws then sends `error`). */
  end(failure?: unknown) {
    if (this.ended) return;
    this.ended = true;
    this.failure = failure;
    if (failure === undefined) this.wake?.resolve(DONE);
    else this.wake?.reject(failure);
    this.wake = undefined;
  }
}

export function createFanOut<T>(log: Logger) {
  const sources = new Map<string, Source<T>>();

  const forget = (source: Source<T>) => {
    if (sources.get(source.key) === source) sources.delete(source.key);
  };

  async function close(source: Source<T>) {
    forget(source);
    try {
      await source.iterator?.return?.();
    } catch (error) {
      log.error({ err: error }, "could not close a shared subscription");
    }
  }

  function listen(source: Source<T>, socket: WebSocket, id: string) {
    const listener = new Listener(socket, `{"id":${JSON.stringify(id)},"type":"next","payload":`, source.leave);
    source.listeners.add(listener);
    return listener;
  }

  async function broadcast(source: Source<T>, payload: string) {
    let written = 0;
    for (const listener of [...source.listeners]) {
      if (listener.ended || listener.socket.readyState !== WebSocket.OPEN) continue;
      listener.socket.send(`${listener.prefix}${payload}}`);
      if (++written % SLICE === 0) await new Promise((resolve) => setImmediate(resolve));
    }
  }

  /** Every event, executed once, to every listener; then the listeners end with the source. */
  async function pump(source: Source<T>, iterator: AsyncIterator<ExecutionResult>) {
    let failure: unknown;
    try {
      for (let step = await iterator.next(); !step.done; step = await iterator.next()) {
        await broadcast(source, JSON.stringify(step.value));
      }
    } catch (error) {
      failure = error;
      // One the database could not serve was counted in its outage as it was masked (yoga.ts).
      if (!isBusyError(error)) log.error({ err: error }, "a shared subscription failed");
    }
    forget(source);
    // Only now: every `next` of this source has been written before graphql-ws sends `complete`.
    for (const listener of source.listeners) listener.end(failure);
  }

  return {
    /**
     * A listener of the source already open (or opening) for `key`, with the arguments its first
     * subscriber had validated; null when there is none, or it did not open.
     */
    async join(key: string, socket: WebSocket, id: string): Promise<{ listener: Listener; args: T } | null> {
      const source = sources.get(key);
      if (!source || !(await source.opened) || sources.get(key) !== source) return null;
      return { listener: listen(source, socket, id), args: source.args };
    },

    /**
     * Runs `subscribe` for the first subscriber of `key`. A stream becomes the shared source, and
     * this subscriber its first listener; any other result (a refusal, errors) is theirs alone,
     * returned as it is. Subscribers of `key` arriving meanwhile wait for it rather than open their own.
     */
    async open(key: string, args: T, socket: WebSocket, id: string, subscribe: () => Promise<Outcome>): Promise<Outcome> {
      // Another source took the key while this subscriber waited on one that was refused: this one runs alone.
      if (sources.has(key)) return subscribe();
      let opened!: (ok: boolean) => void;
      const source: Source<T> = {
        key,
        args,
        listeners: new Set(),
        leave: (listener) => {
          if (source.listeners.delete(listener) && source.listeners.size === 0) void close(source);
        },
        opened: new Promise((resolve) => (opened = resolve)),
      };
      sources.set(key, source);
      try {
        const outcome = await subscribe();
        if (!(Symbol.asyncIterator in outcome)) return outcome;
        source.iterator = outcome[Symbol.asyncIterator]();
        const listener = listen(source, socket, id);
        void pump(source, source.iterator);
        return listener;
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
