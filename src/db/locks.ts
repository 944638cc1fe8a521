import type { Tx } from "./client.js";
import type { Provider } from "./url.js";

const LOCKABLE = { usuarios: "usuarios" } as const;

/**
 * Holds a user's row until the transaction ends, so that transactions about the same user
 * (two trip requests, two ratings) run one after the other. SQLite transactions already run one
 * at a time (see sqlite-adapter.ts), so only PostgreSQL needs the lock.
 */
export async function lockUser(tx: Tx, provider: Provider, userId: number): Promise<void> {
  if (provider === "postgresql") {
    await tx.$queryRawUnsafe(`SELECT id FROM ${LOCKABLE.usuarios} WHERE id = $1 FOR UPDATE`, userId);
  }
}

/** Advisory lock numbers (any fixed numbers) of the work that runs once however many processes start at once. */
export const SET_UP = { migrations: 727_001, demoData: 727_002 } as const;

/**
 * Makes the transaction the only one holding `key` in any process until it ends, so that work
 * several processes start at once runs once, the others then finding it done. PostgreSQL has
 * advisory locks for it; SQLite has one writer at a time, and a transaction takes the write lock
 * first so that it never reads what another process is about to change.
 */
export async function holdAcrossProcesses(tx: Tx, provider: Provider, key: number): Promise<void> {
  if (provider === "postgresql") await tx.$executeRawUnsafe("SELECT pg_advisory_xact_lock($1)", key);
  // A write that changes nothing still takes the write lock.
  else await tx.$executeRawUnsafe(`UPDATE ${LOCKABLE.usuarios} SET id = id WHERE 0`);
}
