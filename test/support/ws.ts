import { setTimeout as delay } from "node:timers/promises";
import { createClient, type Client } from "graphql-ws";
import WebSocket from "ws";

/** A graphql-ws client, resolved once the server has acknowledged the connection. */
export function connect(port: number, connectionParams: Record<string, unknown> = {}): Promise<Client> {
  return new Promise((resolve, reject) => {
    const client: Client = createClient({
      url: `ws://127.0.0.1:${port}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams,
      retryAttempts: 0,
      lazy: false,
      // Failures reach the caller through the rejected promise instead of the console.
      onNonLazyError: () => undefined,
      on: {
        connected: () => resolve(client),
        closed: (event) => reject(new Error(`connection closed: ${(event as { code?: number }).code}`)),
      },
    });
  });
}

interface Subscription<T> {
  /** The next event; rejects after `timeoutMs` without one. */
  next(timeoutMs?: number): Promise<T>;
  close(): Promise<void>;
}

/**
 * Subscribes, then waits a moment: graphql-ws does not acknowledge a subscription, and an event
 * published before the server has registered it would be missed.
 */
export async function subscribe<T = any>(client: Client, query: string, variables: Record<string, unknown> = {}) {
  const iterator = client.iterate<T>({ query, variables });
  const pending = iterator.next();
  await delay(300);
  let first: Promise<IteratorResult<any>> | null = pending;
  const subscription: Subscription<T> = {
    async next(timeoutMs = 5000) {
      const step = first ?? iterator.next();
      first = null;
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error("no event within the time limit")), timeoutMs);
      });
      try {
        const result = await Promise.race([step, timeout]);
        if (result.done) throw new Error("subscription ended");
        if (result.value.errors) throw new Error(JSON.stringify(result.value.errors));
        return result.value.data as T;
      } finally {
        clearTimeout(timer);
      }
    },
    async close() {
      await iterator.return?.();
    },
  };
  return subscription;
}
