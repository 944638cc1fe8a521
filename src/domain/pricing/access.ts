import { adminOnly, signedIn } from "../actor.js";

/** Rates are shown to anyone signed in and changed only by administrators; quotes (fareEstimate) are public. */
export const PRICING_RULES = { read: signedIn, update: adminOnly };
