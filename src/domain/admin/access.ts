import { ADMINS_ONLY, adminOnly, adminOrUnnamedLegacy, isAdmin, rule } from "../actor.js";

/** Who may administer accounts: administrators, and (LEGACY_AUTH=ids) the legacy calls that name no administrator. */
export const ADMIN_RULES = {
  listUsers: adminOnly,
  updateUser: adminOnly,
  deleteUser: adminOnly,
  suspendOrActivate: adminOrUnnamedLegacy,
  auditLog: adminOnly,
  platformStats: adminOnly,
  /** The live map of every driver and trip; a company's own are also its managers' (admin/live-map.ts). */
  liveOperations: adminOnly,
  /** The review screen's view of a driver's document photos; drivers see their own through documentHistory. */
  reviewDocuments: adminOnly,
  /** The public app settings are for anyone; all of them, only for administrators. */
  readAppSettings: rule<{ publicas: boolean }>(
    `${ADMINS_ONLY}: pide solo los ajustes públicos`,
    (actor, { publicas }) => publicas || isAdmin(actor),
  ),
  updateAppSetting: adminOnly,
};
