import { lexicographicSortSchema, printSchema } from "graphql";
import { builder } from "./builder.js";
import "./errors.js";
import "./types/accounts.js";
import "./types/admin.js";
import "./types/companies.js";
import "./types/drivers.js";
import "./types/maps.js";
import "./types/matching.js";
import "./types/notifications.js";
import "./types/pricing.js";
import "./types/trips.js";

export const schema = builder.toSchema();

/** The SDL committed as schema.graphql. */
export const printedSchema = () => printSchema(lexicographicSortSchema(schema));
