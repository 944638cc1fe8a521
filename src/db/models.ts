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
  SosIncident,
  Trip,
  TripShare,
  User,
} from "../generated/sqlite/client.js";
