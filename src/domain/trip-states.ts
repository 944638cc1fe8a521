import { ConflictError, InvalidStateError } from "./errors.js";

export const TRIP_STATES = ["pendiente", "aceptado", "en_ruta", "en_curso", "completado", "cancelado"] as const;
export type TripState = (typeof TRIP_STATES)[number];

export const ACTIVE_STATES = ["pendiente", "aceptado", "en_ruta", "en_curso"] as const satisfies readonly TripState[];
export const FINAL_STATES = ["completado", "cancelado"] as const satisfies readonly TripState[];
/** States in which a driver is assigned and busy with the trip. */
export const ASSIGNED_STATES = ["aceptado", "en_ruta", "en_curso"] as const satisfies readonly TripState[];

export const TRIGGERS = ["aceptar", "iniciar_ruta", "iniciar", "completar", "cancelar"] as const;
export type Trigger = (typeof TRIGGERS)[number];

type DateField = "fecha_aceptacion" | "fecha_en_ruta" | "fecha_inicio" | "fecha_fin" | "fecha_cancelacion";

/**
 * The trip state machine (docs/trips.md, "A trip's states"): a driver accepts a pending
 * trip, heads to the pickup (en_ruta), picks the passenger up (en_curso) and completes it. Start
 * and complete need an assigned driver; cancelling works from any state that is not final.
 */
export const TRANSITIONS: Record<Trigger, { from: readonly TripState[]; to: TripState; date: DateField }> = {
  aceptar: { from: ["pendiente"], to: "aceptado", date: "fecha_aceptacion" },
  iniciar_ruta: { from: ["aceptado"], to: "en_ruta", date: "fecha_en_ruta" },
  iniciar: { from: ["aceptado", "en_ruta"], to: "en_curso", date: "fecha_inicio" },
  completar: { from: ASSIGNED_STATES, to: "completado", date: "fecha_fin" },
  cancelar: { from: ACTIVE_STATES, to: "cancelado", date: "fecha_cancelacion" },
};

/** Completed or cancelled: nothing happens to the trip any more, so nobody needs to watch it. */
export const isFinal = (state: string): boolean => (FINAL_STATES as readonly string[]).includes(state);

/** Whether `state` comes after `than`: a trip's state never goes back. */
export const isFurther = (state: string, than: string): boolean =>
  TRIP_STATES.indexOf(state as TripState) > TRIP_STATES.indexOf(than as TripState);

/** The error for a trigger the trip's state does not allow, worded for the person who tried. */
export function refusal(state: string, trigger: Trigger): Error {
  if (isFinal(state)) return new InvalidStateError(`El viaje ya está ${state}; no admite más cambios`);
  if (trigger === "aceptar") return new ConflictError("El viaje ya fue tomado por otro conductor");
  if (state === "pendiente") return new InvalidStateError("El viaje aún no tiene un conductor asignado");
  if (trigger === "iniciar_ruta") return new InvalidStateError(`El viaje está ${state}; el conductor ya salió hacia el punto de recogida`);
  return new InvalidStateError(`El viaje está ${state}; no se puede ${trigger === "iniciar" ? "iniciar" : trigger} ahora`);
}

/** The state a trigger leads to, or the error explaining why it cannot happen. */
export function nextState(state: string, trigger: Trigger): TripState {
  const transition = TRANSITIONS[trigger];
  if (!(transition.from as readonly string[]).includes(state)) throw refusal(state, trigger);
  return transition.to;
}
