import { figureRoutes } from "./figures.js";
import { applicationRoutes, profileReadRoutes } from "./profile.js";
import { workRoutes } from "./work.js";

/** The driver app's calls, in the order the OpenAPI document lists them. */
export const conductorRoutes = [...workRoutes, ...profileReadRoutes, ...figureRoutes, ...applicationRoutes];
