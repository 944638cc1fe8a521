import type { SqlQuery, Transaction } from "@prisma/driver-adapter-utils";

const ENDS = new Set(["COMMIT", "ROLLBACK"]);

/**
 * A driver's transaction, let go however it ends. Prisma sends COMMIT or ROLLBACK and only then
 * calls the adapter's commit() or rollback(), which send nothing and release what the transaction
 * holds (a pooled connection; on SQLite, the one connection every query waits for). When that
 * statement fails, neither is called and what it held stays held for good: every later query waits
 * in vain. Here a failed COMMIT or ROLLBACK is followed by `settle` (what the connection still
 * needs, if anything, to be usable again) and by the release; `released` is told when the
 * transaction has ended, however it did.
 */
export function endedAnyway(
  tx: Transaction,
  { settle, released }: { settle?: (tx: Transaction) => Promise<unknown>; released?: () => void } = {},
): Transaction {
  let ended = false;
  const once = (end: () => Promise<void>) => async () => {
    if (ended) return;
    ended = true;
    try {
      await end();
    } finally {
      released?.();
    }
  };
  const rollback = once(() => tx.rollback());
  return {
    provider: tx.provider,
    adapterName: tx.adapterName,
    options: tx.options,
    queryRaw: (query: SqlQuery) => tx.queryRaw(query),
    async executeRaw(query: SqlQuery) {
      try {
        return await tx.executeRaw(query);
      } catch (error) {
        if (ENDS.has(query.sql)) {
          await settle?.(tx).catch(() => undefined);
          await rollback();
        }
        throw error;
      }
    },
    commit: once(() => tx.commit()),
    rollback,
  };
}
