import type { Tone } from "../components/badge";
import type { AlertaSosFragment, EstadoSos, PasoSos } from "../gql/graphql";
import { USER_TYPES } from "../labels";

export type Sos = AlertaSosFragment;

export const SOS_STATES: Record<EstadoSos, { label: string; tone: Tone }> = {
  abierto: { label: "Sin atender", tone: "peligro" },
  atendido: { label: "Atendido", tone: "alerta" },
  resuelto: { label: "Resuelto", tone: "exito" },
};

export const SOS_STEPS: Record<PasoSos, string> = {
  enviado: "Enviado",
  avisado: "Correos enviados",
  repetido: "Enviado otra vez",
  escalado: "Escalado",
  atendido: "Atendido",
  enlace: "Nuevo enlace",
  resuelto: "Resuelto",
};

/** "Pasajero Ana Restrepo": who sent it, as the alert names them. */
export const senderOf = (sos: Sos) =>
  `${USER_TYPES[sos.rol]} ${sos.remitente ? `${sos.remitente.nombre} ${sos.remitente.apellido}` : `#${sos.usuario_id}`}`;

/**
 * Of two copies of one incident, the newer (a higher version); the link a copy carries is kept,
 * since only the alert that brought the incident, or a new link asked for, has one.
 */
export const newer = (held: Sos | undefined, next: Sos): Sos =>
  held && held.version > next.version ? held : { ...next, enlace_seguimiento: next.enlace_seguimiento ?? held?.enlace_seguimiento ?? null };
