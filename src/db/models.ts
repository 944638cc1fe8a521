/**
 * The rows the code reads, as one place to import them from. Both generated clients have the same
 * models; the SQLite one's types stand for both, as `Db` does in client.ts.
 */
export type { LedgerEntry, Notification, Payout, PricingRate, Trip, User } from "../generated/sqlite/client.js";
