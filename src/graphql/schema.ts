import { lexicographicSortSchema, printSchema } from "graphql";
import { builder } from "./builder.js";
import "./errors.js";
import "./types/accounts.js";
import "./types/maps.js";
import "./types/notifications.js";

export const schema = builder.toSchema();

/** The SDL committed as schema.graphql. */
export const printedSchema = () => printSchema(lexicographicSortSchema(schema));
