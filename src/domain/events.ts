import type { Notification, Payout, Trip } from "../db/models.js";
import type { PositionReport, Presence } from "./presence/presence.js";
import type { SosView } from "./safety/sos-views.js";

/** A driver's position as trip watchers receive it. */
export type DriverPositionEvent = PositionReport;

export interface TripRequestEvent {
  tipo: "nueva" | "retirada";
  viaje: Trip;
}

/**
 * What the domain announces after a change commits, keyed by topic; the first argument after
 * the topic picks the listeners (a user id, a trip id). Payloads cross processes as JSON.
 */
export type EventMap = {
  notificacion: [usuarioId: number, payload: Notification];
  /** The full trip, on every change of state. */
  viaje: [viajeId: number, payload: Trip];
  /** Every trip, when it is requested and on every change: the administrators' live view. */
  viajes: [payload: Trip];
  /** The assigned driver's position while the trip is active. */
  ubicacion_viaje: [viajeId: number, payload: DriverPositionEvent];
  /** A driver's payout after each change, under the driver's id and under EVERY_DRIVER (money/announcements.ts). */
  retiro: [conductorId: number, payload: Payout];
  /** A driver's balance moved; listeners read it again. */
  saldo: [conductorId: number, payload: { conductor_id: number }];
  /**
   * An SOS as it is after each step (sent, escalated, acknowledged, resolved…): under SOS_EVERYONE
   * for the operators, and under the id of the company the trip is done for, for its managers.
   */
  sos: [alcance: number, payload: SosView];
  /** Trip requests offered to, or withdrawn from, one driver. */
  solicitud_viaje: [conductorId: number, payload: TripRequestEvent];
  /**
   * What was decided about a driver (null: nothing, their next ping decides) and the positions
   * of known drivers: every process keeps its copy of the online drivers with them. `origen` is
   * the process that published, which has already applied the change.
   */
  presencia_conductor: [payload: { origen: string; conductor_id: number; presencia: Presence | null }];
  posicion_conductor: [payload: { origen: string; posiciones: PositionReport[] }];
  /** Sessions that just ended (logout, suspension, password change, …): their open connections close. */
  sesion_revocada: [payload: { sesiones: number[] }];
  /** A user's role or standing changed, or the account was deleted: processes that remember them read them again. */
  cuenta_cambiada: [payload: { usuario_id: number }];
  /** A trip's share link was revoked: pages following it stop showing the trip. */
  enlace_revocado: [enlaceId: number, payload: { enlace_id: number }];
};

/** Topics every process follows as a whole, not per listener. */
type Broadcast = { [K in keyof EventMap]: EventMap[K] extends [unknown] ? K : never }[keyof EventMap];
/** Topics followed per id (a trip, a user). */
type PerId = Exclude<keyof EventMap, Broadcast>;

export interface Events {
  publish<K extends keyof EventMap>(topic: K, ...args: EventMap[K]): void;
  subscribe<K extends Broadcast>(topic: K): AsyncIterableIterator<EventMap[K][0]>;
  subscribe<K extends PerId>(topic: K, id: EventMap[K][0]): AsyncIterableIterator<EventMap[K][1]>;
}
