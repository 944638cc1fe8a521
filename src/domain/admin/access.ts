import { adminOnly, isAdmin, isUnnamedLegacy, rule } from "../actor.js";

const ADMINS = "Esta operación es solo para administradores";

/** Who may administer accounts and companies: administrators, and (LEGACY_AUTH=ids) the legacy calls that name no administrator. */
export const ADMIN_RULES = {
  listUsers: adminOnly,
  updateUser: adminOnly,
  deleteUser: adminOnly,
  /** The specification's suspend and activate calls carry no admin_id. */
  suspendOrActivate: rule<void>(ADMINS, (actor) => isAdmin(actor) || isUnnamedLegacy(actor)),
  auditLog: adminOnly,
  companies: adminOnly,
};
