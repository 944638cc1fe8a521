import { authorize, type Actor } from "../actor.js";
import type { Deps } from "../deps.js";
import { documentHistory } from "../drivers/document-history.js";
import { ADMIN_RULES } from "./access.js";

/**
 * A driver's document photos for the administrators' review screen. The legacy call behind it
 * names its caller as an administrator (admin_id), so nobody else, the driver included, opens it.
 */
export async function reviewDocumentHistory(deps: Deps, actor: Actor, conductorId: number) {
  authorize(actor, ADMIN_RULES.reviewDocuments);
  return documentHistory(deps, actor, conductorId);
}
