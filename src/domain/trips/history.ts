import type { Tx } from "../../db/client.js";
import type { Trip } from "../../db/models.js";
import { isMember, type Actor } from "../actor.js";
import type { Deps } from "../deps.js";
import { TRIP_RULES } from "./access.js";

/** What a trip's history records besides its states. */
export type TripEventType =
  | "pin_correcto"
  | "pin_incorrecto"
  | "inicio_bloqueado"
  | "inicio_confirmado"
  | "cambio_pedido"
  | "cambio_aceptado"
  | "cambio_rechazado"
  | "cambio_vencido";

/** Adds an event to a trip's history, in the transaction of what it records; `actor` is who did it (null: the service itself). */
export function recordTripEvent(tx: Tx, trip: Pick<Trip, "id">, tipo: TripEventType, actor: Actor | null, at: Date, detalles?: object) {
  return tx.tripEvent.create({
    data: {
      viaje_id: trip.id,
      tipo,
      actor_id: actor && isMember(actor) ? actor.id : null,
      detalles: detalles ? JSON.stringify(detalles) : null,
      creado_en: at,
    },
  });
}

/** A trip's history, oldest first, for its passenger, its driver and administrators; null for anyone else. */
export async function tripHistory(deps: Deps, actor: Actor, trip: Trip) {
  if (!TRIP_RULES.follow.allows(actor, trip)) return null;
  return deps.db.tripEvent.findMany({ where: { viaje_id: trip.id }, orderBy: { id: "asc" } });
}
