import { signedIn } from "../actor.js";

/** Who may do what with notifications: each user their own, whoever calls. */
export const NOTIFICATION_RULES = {
  own: signedIn,
};
