import type { Trip } from "../../db/models.js";
import { adminOnly, isUser, rule } from "../actor.js";
import { COMPANY_RULES } from "../company-scope.js";
import { isFinal } from "../trip-states.js";

const party = (actor: Parameters<typeof isUser>[0], trip: Trip) => isUser(actor, trip.usuario_id) || isUser(actor, trip.conductor_id);

/** Who may do what with an SOS. */
export const SOS_RULES = {
  /** The passenger or the assigned driver of a trip still under way: nobody else, not even an administrator. */
  send: rule<Trip>(
    (trip) =>
      isFinal(trip.estado)
        ? `El viaje ${trip.id} ya terminó (${trip.estado}): un SOS se envía desde un viaje activo`
        : `Solo el pasajero o el conductor asignado del viaje ${trip.id} pueden enviar un SOS desde él`,
    (actor, trip) => !isFinal(trip.estado) && party(actor, trip),
  ),
  /** Acknowledging, resolving and making a new link: the operators, who are the administrators. */
  operate: rule("Solo los operadores (administradores) atienden y resuelven un SOS", adminOnly.allows),
  /** Reading incidents: administrators all of them, a company's managers those of the trips done for it. */
  read: COMPANY_RULES.read,
};
