import type { Trip } from "../../db/models.js";
import { isUser, rule, signedIn } from "../actor.js";

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
