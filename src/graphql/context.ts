import type { PubSub } from "graphql-yoga";
import type { Actor } from "../domain/actor.js";
import type { Deps } from "../domain/deps.js";
import type { EventMap } from "../domain/events.js";
import type { Identity, Transport } from "./identity.js";

export interface Context {
  deps: Deps;
  /** Subscriptions listen here; the domain publishes through `deps.events`, the same object. */
  pubsub: PubSub<EventMap>;
  /** Who is calling; every rule is checked against it. */
  actor: Actor;
}

/** The one context factory, used by HTTP, SSE, WebSocket and the legacy shim alike. */
export const contextFactory =
  (deps: Deps, pubsub: PubSub<EventMap>, identity: Identity) =>
  async (transport: Transport): Promise<Context> => ({
    deps,
    pubsub,
    actor: await identity.actor(transport),
  });
