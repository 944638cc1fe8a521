import type { PubSub } from "graphql-yoga";
import type { Deps } from "../domain/deps.js";
import type { EventMap } from "../domain/events.js";
import { callerFrom, type Caller, type Transport } from "./identity.js";

export interface Context {
  deps: Deps;
  /** Subscriptions listen here; the domain publishes through `deps.events`, the same object. */
  pubsub: PubSub<EventMap>;
  /** Who is calling, as far as the transport says; null when nobody identified themselves. */
  caller: Caller | null;
  /** The call came through the legacy shim. */
  legacy: boolean;
}

/** The one context factory, used by HTTP, WebSocket and the legacy shim alike. */
export const contextFactory = (deps: Deps, pubsub: PubSub<EventMap>) => (transport: Transport): Context => ({
  deps,
  pubsub,
  caller: callerFrom(transport),
  legacy: transport.legacy === true,
});
