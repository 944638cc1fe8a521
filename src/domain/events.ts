import type { Notification, Trip } from "../generated/sqlite/client.js";

/** A driver's position as it travels to the index of every process and to trip watchers. */
export interface DriverPositionEvent {
  conductor_id: number;
  latitud: number;
  longitud: number;
  disponible: boolean;
  at: Date;
}

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
  /** The assigned driver's position while the trip is active. */
  ubicacion_viaje: [viajeId: number, payload: DriverPositionEvent];
  /** Trip requests offered to, or withdrawn from, one driver. */
  solicitud_viaje: [conductorId: number, payload: TripRequestEvent];
  /** Every driver position and availability change: keeps each process's geo index current. */
  posicion_conductor: [payload: DriverPositionEvent];
  /** Sessions that just ended (logout, suspension, password change, …): their open connections close. */
  sesion_revocada: [payload: { sesiones: number[] }];
};

export interface Events {
  publish<K extends keyof EventMap>(topic: K, ...args: EventMap[K]): void;
}
