import type { Tone } from "../../components/badge";
import type { EstadoViaje, FilaViajeFragment } from "../../gql/graphql";

export type Trip = FilaViajeFragment;

/** The states of a trip that has not ended: it can still change, and be cancelled. */
export const ACTIVE: EstadoViaje[] = ["pendiente", "aceptado", "en_ruta", "en_curso"];

export const isActive = (trip: Pick<Trip, "estado">) => ACTIVE.includes(trip.estado);

/** A driver is on the way or driving: where they are is worth following. */
export const hasDriver = (trip: Pick<Trip, "estado">) => trip.estado !== "pendiente" && isActive(trip);

export const TRIP_TONES: Record<EstadoViaje, Tone> = {
  pendiente: "alerta",
  aceptado: "info",
  en_ruta: "info",
  en_curso: "info",
  completado: "exito",
  cancelado: "neutro",
};
