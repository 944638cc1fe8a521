import { isMember, rule, type Actor } from "../actor.js";

const isDriver = (actor: Actor) => isMember(actor) && actor.role === "conductor";

/** Who may do what with a driver's company, besides its managers (company-scope.ts) and administrators. */
export const AFFILIATION_RULES = {
  /** Asking to join, answering an invitation, leaving: the driver themselves. */
  driver: rule("Esta operación es para conductores", isDriver),
};
