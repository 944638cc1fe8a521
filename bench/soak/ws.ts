import { setTimeout as sleep } from "node:timers/promises";
import { type Client, createClient } from "graphql-ws";
import WebSocket from "ws";
import type { Api, Census } from "./client.js";
import type { Random } from "./random.js";

/**
 * One actor's graphql-ws connection, opened with its Bearer token on whichever process is up and,
 * when that process goes away, opened again on another one: graphql-ws then subscribes again to
 * what was open. `onReconnect` runs after each of those reconnections, for the actor to catch up on
 * what it may have missed meanwhile.
 */
export function liveClient(api: Api, token: string, random: Random, onReconnect: () => void = () => undefined): Client {
  return createClient({
    url: async () => `ws://127.0.0.1:${(await api.target()).port}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: { authorization: `Bearer ${token}` },
    lazy: true,
    retryAttempts: Number.POSITIVE_INFINITY,
    shouldRetry: () => true,
    retryWait: () => sleep(random.between(300, 1000)),
    on: {
      connected: (_socket, _payload, wasRetry) => {
        if (wasRetry) onReconnect();
      },
      closed: (event) => {
        const code = (event as { code?: number }).code;
        // 1000 is the client closing an idle connection.
        if (code !== 1000) api.census.record("graphql-ws connection", `closed ${code ?? "?"}`);
      },
    },
  });
}

/** How a subscription's failure is counted: its GraphQL error code, or the close code of its connection. */
function describe(error: unknown): string {
  if (Array.isArray(error)) {
    const first = error[0] as { message?: string; extensions?: { code?: string } } | undefined;
    return `error ${first?.extensions?.code ?? first?.message?.slice(0, 60) ?? "?"}`;
  }
  if (typeof error === "object" && error !== null && "code" in error) return `closed ${(error as { code: unknown }).code}`;
  return `error ${error instanceof Error ? error.message.slice(0, 60) : String(error)}`;
}

/**
 * A subscription kept open: events go to `next`; when it fails or ends before `done()` holds, the
 * failure is counted under `graphql-ws <field>` and it is opened again a moment later. The
 * function returned closes it for good.
 */
export function keepSubscribed<T>(
  client: Client,
  census: Census,
  field: string,
  request: { query: string; variables: Record<string, unknown> },
  handlers: { next: (data: T) => void; done?: () => boolean; resubscribed?: () => void },
): () => void {
  const path = `graphql-ws ${field}`;
  let closed = false;
  let unsubscribe = () => {};
  let again: NodeJS.Timeout | undefined;
  const reopen = () => {
    if (closed || handlers.done?.()) return;
    again = setTimeout(() => {
      open();
      handlers.resubscribed?.();
    }, 500);
  };
  const open = () => {
    unsubscribe = client.subscribe<T>(request, {
      next: (result) => {
        if (result.errors?.length) census.record(path, describe(result.errors));
        else if (result.data) handlers.next(result.data as T);
      },
      error: (error) => {
        if (closed) return;
        census.record(path, describe(error));
        reopen();
      },
      complete: () => {
        if (closed || handlers.done?.()) return;
        census.record(path, "ended early");
        reopen();
      },
    });
  };
  open();
  return () => {
    closed = true;
    clearTimeout(again);
    unsubscribe();
  };
}
