import { askingRoutes } from "./asking.js";
import { changeRoutes } from "./changes.js";
import { followingRoutes } from "./following.js";
import { listRoutes } from "./lists.js";

/** The trips' calls, in the order the OpenAPI document lists them. */
export const tripRoutes = [...askingRoutes, ...followingRoutes, ...changeRoutes, ...listRoutes];
