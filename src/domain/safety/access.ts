import type { Trip } from "../../db/models.js";
import { isUser, member, rule, signedIn, type Actor, type Member } from "../actor.js";
import { NotFoundError } from "../errors.js";

/**
 * Who may do what with emergency contacts and trip links. Each person's contacts and links are
 * looked up among their own only, so somebody else's is as unknown as one that never was.
 */
export const SAFETY_RULES = {
  /** Emergency contacts, and the links one made: everybody handles their own. */
  own: signedIn,
  /** Making, listing and mailing links to follow a trip: its passenger and its driver. */
  share: rule<Trip>(
    (trip) => `Solo el pasajero o el conductor del viaje ${trip.id} pueden compartirlo`,
    (actor, trip) => isUser(actor, trip.usuario_id) || isUser(actor, trip.conductor_id),
  ),
};

/** The person whose contacts and links an operation handles: the caller, who must exist (a legacy id may name nobody). */
export function owner(actor: Actor): Member {
  const me = member(actor, SAFETY_RULES.own);
  if (me.role === null) throw new NotFoundError(`No existe un usuario con id ${me.id}`);
  return me;
}
