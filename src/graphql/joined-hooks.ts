import type { Plugin } from "graphql-yoga";

type OnRequest = NonNullable<Plugin["onRequest"]>;
type OnResponse = NonNullable<Plugin["onResponse"]>;

const isPromise = (value: unknown): value is Promise<unknown> => typeof (value as { then?: unknown } | null)?.then === "function";

/**
 * The plugins, their onRequest hooks run as one and their onResponse hooks as one, in the plugins'
 * order and each with the payload whatwg-node would give it. whatwg-node passes every request
 * through each hook by a chain of promise-like objects, about a kilobyte apiece: a legacy call went
 * through fourteen of the service's own. Here they run in a plain loop, and a promise is awaited
 * only when a hook returns one. The plugins' other hooks are theirs as before.
 */
export function withJoinedHooks<P extends Pick<Plugin, "onRequest" | "onResponse">>(
  plugins: P[],
): Array<Plugin | Omit<P, "onRequest" | "onResponse">> {
  const onRequest: OnRequest[] = [];
  const onResponse: OnResponse[] = [];
  const rest = plugins.map(({ onRequest: request, onResponse: response, ...plugin }) => {
    if (request) onRequest.push(request);
    if (response) onResponse.push(response);
    return plugin;
  });
  return [{ onRequest: joinRequestHooks(onRequest), onResponse: joinResponseHooks(onResponse) }, ...rest];
}

/** Runs each hook in turn, waiting for one that returns a promise, until `stopped` says so. */
function inTurn<Hook>(hooks: Hook[], run: (hook: Hook) => unknown, stopped: () => boolean): void | Promise<void> {
  const from = (first: number): void | Promise<void> => {
    for (let i = first; i < hooks.length && !stopped(); i++) {
      const done = run(hooks[i]!);
      if (isPromise(done)) return done.then(() => from(i + 1));
    }
  };
  return from(0);
}

function joinRequestHooks(hooks: OnRequest[]): OnRequest {
  return (payload) => {
    // What a hook hands on reaches the hooks after it, as between whatwg-node's own hooks.
    let { request, requestHandler } = payload;
    let ended = false;
    return inTurn(
      hooks,
      (hook) =>
        hook({
          ...payload,
          request,
          requestHandler,
          setRequest(next) {
            request = next;
            payload.setRequest(next);
          },
          setRequestHandler(next) {
            requestHandler = next;
            payload.setRequestHandler(next);
          },
          endResponse(response) {
            if (response) ended = true;
            payload.endResponse(response);
          },
        }),
      () => ended,
    );
  };
}

const never = () => false;

function joinResponseHooks(hooks: OnResponse[]): OnResponse {
  return (payload) => {
    let { response } = payload;
    return inTurn(
      hooks,
      (hook) =>
        hook({
          ...payload,
          response,
          setResponse(next) {
            response = next;
            payload.setResponse(next);
          },
        }),
      never,
    );
  };
}
