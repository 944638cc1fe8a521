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
