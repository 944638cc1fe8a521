import { authRoutes } from "./auth.js";

export const legacyRoutes = [...authRoutes];
