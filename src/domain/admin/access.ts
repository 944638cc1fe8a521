import { adminOnly, adminOrUnnamedLegacy } from "../actor.js";

/** Who may administer accounts and companies: administrators, and (LEGACY_AUTH=ids) the legacy calls that name no administrator. */
export const ADMIN_RULES = {
  listUsers: adminOnly,
  updateUser: adminOnly,
  deleteUser: adminOnly,
  suspendOrActivate: adminOrUnnamedLegacy,
  auditLog: adminOnly,
  companies: adminOnly,
};
