import { lexicographicSortSchema, printSchema } from "graphql";
import { builder } from "./builder.js";
import "./errors.js";
import "./types/accounts.js";
import "./types/admin.js";
import "./types/affiliations.js";
import "./types/app-settings.js";
import "./types/companies.js";
import "./types/document-history.js";
import "./types/devices.js";
import "./types/driver-figures.js";
import "./types/drivers.js";
import "./types/fleet.js";
import "./types/fleet-figures.js";
import "./types/fleet-trips.js";
import "./types/health.js";
import "./types/live.js";
import "./types/maps.js";
import "./types/matching.js";
import "./types/balances.js";
import "./types/ledger.js";
import "./types/payouts.js";
import "./types/places.js";
import "./types/reservations.js";
import "./types/notifications.js";
import "./types/operations.js";
import "./types/platform-stats.js";
import "./types/pricing.js";
import "./types/rate-sheets.js";
import "./types/safety.js";
import "./types/sos.js";
import "./types/trips.js";

export const schema = builder.toSchema();

/** The SDL committed as schema.graphql. */
export const printedSchema = () => printSchema(lexicographicSortSchema(schema));
