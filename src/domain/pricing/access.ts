import { adminOnly, signedIn } from "../actor.js";

/**
 * Rates are shown to anyone signed in and changed only by administrators; quotes (fareEstimate)
 * are public. The administrator's pricing screen, with the commission and what is fixed, is theirs.
 */
export const PRICING_RULES = { read: signedIn, update: adminOnly, sheets: adminOnly };
