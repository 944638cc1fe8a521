import { authRoutes } from "./auth.js";
import { mapRoutes } from "./map.js";

export const legacyRoutes = [...authRoutes, ...mapRoutes];
