import { askingRoutes } from "./asking.js";
import { changeRoutes } from "./changes.js";
import { followingRoutes } from "./following.js";
import { listRoutes } from "./lists.js";
import { quoteRoutes } from "./quote.js";

/** The trips' calls, in the order the OpenAPI document lists them. */
export const tripRoutes = [...quoteRoutes, ...askingRoutes, ...followingRoutes, ...changeRoutes, ...listRoutes];
