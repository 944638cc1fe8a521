import { adminRoutes } from "./admin/index.js";
import { authRoutes } from "./auth.js";
import { conductorRoutes } from "./conductor/index.js";
import { mapRoutes } from "./map.js";
import { moneyRoutes } from "./money.js";
import { placeRoutes } from "./places.js";
import { safetyRoutes } from "./safety.js";
import { sosRoutes } from "./sos.js";
import { tripRoutes } from "./trips/index.js";

export const legacyRoutes = [
  ...authRoutes,
  ...mapRoutes,
  ...tripRoutes,
  ...conductorRoutes,
  ...moneyRoutes,
  ...safetyRoutes,
  ...placeRoutes,
  ...sosRoutes,
  ...adminRoutes,
];
