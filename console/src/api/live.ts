import { type Client, createClient } from "graphql-ws";
import { useEffect, useRef, useState } from "react";
import { session } from "../auth/session";
import type { TypedDocumentString } from "../gql/graphql";
import { SESSION_ENDED } from "./request";

// graphql-ws's close code for a refused connection: the server closes with it when the token is
// not (or no longer) a valid session, and the client does not retry it.
const FORBIDDEN = 4403;

let client: Client | null = null;
// Whether that socket is open: a subscription started on an open one is live at once, as the
// socket's "connected" event will not come again for it.
let connected = false;

/**
 * One WebSocket to /graphql for every subscription of the session, opened when the first one
 * starts; the token travels in the connection parameters, where the server reads it.
 */
function liveClient(): Client {
  if (client) return client;
  const protocol = window.location.protocol === "https:" ? "wss:" : "ws:";
  const created = createClient({
    url: `${protocol}//${window.location.host}/graphql`,
    connectionParams: () => ({ authorization: `Bearer ${session.token()}` }),
    retryAttempts: Number.POSITIVE_INFINITY,
    shouldRetry: (event) => !(event && typeof event === "object" && "code" in event && event.code === FORBIDDEN),
    on: {
      connected: () => {
        connected = client === created;
      },
      closed: (event) => {
        if (client === created) connected = false;
        if (event && typeof event === "object" && "code" in event && event.code === FORBIDDEN) session.end(SESSION_ENDED);
      },
    },
  });
  client = created;
  return created;
}

// A new session (or none) must not reuse the previous one's socket.
session.subscribe(() => {
  client?.dispose();
  client = null;
  connected = false;
});

export type LiveStatus = "conectando" | "en_vivo" | "sin_conexion";

/** What an operation ends with when the server cannot serve it now (its database away): the API's 503. */
const unavailable = (error: unknown) =>
  Array.isArray(error) && error.some((item: { extensions?: { code?: unknown } }) => item?.extensions?.code === "SERVICE_UNAVAILABLE");

/**
 * Follows a subscription while the component is mounted and `variables` is not null (null: nothing
 * to follow, or no longer); `onData` gets each event's data. With `resubscribeMs`, a subscription the
 * server ends (it could not read, say while its database restarts) is started again after that long;
 * one it refused is not.
 */
export function useSubscription<R, V>(
  document: TypedDocumentString<R, V>,
  variables: V | null,
  onData: (data: R) => void,
  options: { resubscribeMs?: number } = {},
): LiveStatus {
  const [status, setStatus] = useState<LiveStatus>("conectando");
  const handler = useRef(onData);
  handler.current = onData;
  const key = JSON.stringify(variables);
  const { resubscribeMs } = options;

  useEffect(() => {
    const variables = JSON.parse(key) as Record<string, unknown> | null;
    if (!variables) return;
    const live = liveClient();
    setStatus(connected ? "en_vivo" : "conectando");
    const stopListening = [live.on("connected", () => setStatus("en_vivo")), live.on("closed", () => setStatus("sin_conexion"))];
    let unsubscribe: () => void = () => undefined;
    let again: ReturnType<typeof setTimeout> | undefined;
    const ended = () => {
      if (resubscribeMs !== undefined) again = setTimeout(start, resubscribeMs);
    };
    function start() {
      unsubscribe = live.subscribe<R>(
        { query: String(document), variables },
        {
          next: (result) => {
            setStatus("en_vivo");
            if (result.data) handler.current(result.data);
          },
          error: (error) => {
            setStatus("sin_conexion");
            // A refusal stays one; a server that could not serve now may next time.
            if (unavailable(error)) ended();
          },
          complete: ended,
        },
      );
    }
    start();
    return () => {
      clearTimeout(again);
      unsubscribe();
      for (const stop of stopListening) stop();
    };
  }, [document, key, resubscribeMs]);

  return status;
}
