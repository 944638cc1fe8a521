import { auditRoutes } from "./audit.js";
import { documentHistoryRoutes, driverReviewRoutes } from "./drivers.js";
import { settingsRoutes } from "./settings.js";
import { statsRoutes } from "./stats.js";
import { userRoutes } from "./users.js";

/** The administrators' calls, in the order the OpenAPI document lists them. */
export const adminRoutes = [
  ...userRoutes,
  ...driverReviewRoutes,
  ...auditRoutes,
  ...statsRoutes,
  ...settingsRoutes,
  ...documentHistoryRoutes,
];
