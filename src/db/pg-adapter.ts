import { PrismaPg } from "@prisma/adapter-pg";
import type { SqlDriverAdapterFactory, SqlQuery, Transaction } from "@prisma/driver-adapter-utils";
import type pg from "pg";

/**
 * PrismaPg, with each transaction's connection given back to the pool however the transaction
 * ends. Prisma sends COMMIT or ROLLBACK and only then lets the adapter release the connection, so
 * when that statement fails (the server restarted, the connection broke) the connection stays lent
 * out for good: after as many of those as the pool has connections, every query waits for one in
 * vain until the process restarts. Here the connection is released as that statement fails; a
 * broken one then leaves the pool.
 */
export function releasingPg(pool: pg.Pool): SqlDriverAdapterFactory {
  const factory = new PrismaPg(pool, { disposeExternalPool: true });
  return {
    provider: factory.provider,
    adapterName: factory.adapterName,
    async connect() {
      const adapter = await factory.connect();
      const start = adapter.startTransaction.bind(adapter);
      adapter.startTransaction = async (isolationLevel) => releasedAnyway(await start(isolationLevel));
      return adapter;
    },
  };
}

const ENDS = new Set(["COMMIT", "ROLLBACK"]);

function releasedAnyway(tx: Transaction): Transaction {
  let released = false;
  // The adapter's commit() and rollback() send nothing: each only releases the connection.
  const once = (release: () => Promise<void>) => async () => {
    if (released) return;
    released = true;
    await release();
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
        if (ENDS.has(query.sql)) await rollback();
        throw error;
      }
    },
    commit: once(() => tx.commit()),
    rollback,
  };
}
