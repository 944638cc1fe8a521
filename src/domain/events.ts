import type { Notification } from "../generated/sqlite/client.js";

/**
 * What the domain announces after a change commits, keyed by topic; the first argument after
 * the topic picks the listeners (a user id, a trip id). Payloads cross processes as JSON.
 */
export type EventMap = {
  notificacion: [usuarioId: number, payload: Notification];
};

export interface Events {
  publish<K extends keyof EventMap>(topic: K, ...args: EventMap[K]): void;
}
