import type { Tx } from "./client.js";
import type { Provider } from "./url.js";

const LOCKABLE = { usuarios: "usuarios", empresas: "empresas" } as const;

/**
 * Holds a row until the transaction ends, so that transactions about the same record run one
 * after the other. SQLite transactions already run one at a time (see sqlite-adapter.ts), so only
 * PostgreSQL needs the lock.
 */
async function lockRow(tx: Tx, provider: Provider, table: keyof typeof LOCKABLE, id: number): Promise<void> {
  if (provider === "postgresql") await tx.$queryRawUnsafe(`SELECT id FROM ${LOCKABLE[table]} WHERE id = $1 FOR UPDATE`, id);
}

/** Transactions about the same user (two trip requests, two ratings) run one after the other. */
export const lockUser = (tx: Tx, provider: Provider, userId: number) => lockRow(tx, provider, "usuarios", userId);

/** Transactions about the same company (two invitations counted against its limit) run one after the other. */
export const lockCompany = (tx: Tx, provider: Provider, companyId: number) => lockRow(tx, provider, "empresas", companyId);

/** Advisory lock numbers (any fixed numbers) of the work that runs once however many processes start at once. */
export const SET_UP = { migrations: 727_001, demoData: 727_002 } as const;

/**
 * Makes the transaction the only one holding `key` in any process until it ends, so that work
 * several processes start at once runs once, the others then finding it done. PostgreSQL has
 * advisory locks for it; on SQLite every transaction already takes the write lock when it begins
 * (see sqlite-adapter.ts), so it never reads what another process is about to change.
 */
export async function holdAcrossProcesses(tx: Tx, provider: Provider, key: number): Promise<void> {
  if (provider === "postgresql") await tx.$executeRawUnsafe("SELECT pg_advisory_xact_lock($1)", key);
}
