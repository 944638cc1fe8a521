/**
 * The rows the code reads, as one place to import them from. Both generated clients have the same
 * models; the SQLite one's types stand for both, as `Db` does in client.ts.
 */
export type {
  Company,
  LedgerEntry,
  Notification,
  Payout,
  PricingRate,
  Quote,
  Reservation,
  SavedPlace,
  SosIncident,
  Trip,
  TripChange,
  TripShare,
  User,
} from "../generated/sqlite/client.js";

import type { Prisma } from "../generated/sqlite/client.js";

/** The relations a read of trips includes besides the trip, as a GraphQL answer asks for them: one read loads what it shows. */
export type TripSelection = { include?: Prisma.TripInclude };
