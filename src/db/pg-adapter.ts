import { PrismaPg } from "@prisma/adapter-pg";
import type { SqlDriverAdapterFactory } from "@prisma/driver-adapter-utils";
import type pg from "pg";
import { endedAnyway } from "./transaction-end.js";

/**
 * PrismaPg, with each transaction's connection given back to the pool however the transaction
 * ends (see transaction-end.ts): otherwise, after as many failed COMMITs as the pool has
 * connections (the server restarted, the connection broke), every query would wait for one in vain
 * until the process restarts. A broken connection then leaves the pool.
 */
export function releasingPg(pool: pg.Pool): SqlDriverAdapterFactory {
  const factory = new PrismaPg(pool, { disposeExternalPool: true });
  return {
    provider: factory.provider,
    adapterName: factory.adapterName,
    async connect() {
      const adapter = await factory.connect();
      const start = adapter.startTransaction.bind(adapter);
      adapter.startTransaction = async (isolationLevel) => endedAnyway(await start(isolationLevel));
      return adapter;
    },
  };
}
