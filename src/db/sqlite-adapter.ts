import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import type Database from "better-sqlite3";
import type { IsolationLevel, SqlDriverAdapter, SqlDriverAdapterFactory, SqlQuery, Transaction } from "@prisma/driver-adapter-utils";
import { endedAnyway } from "./transaction-end.js";

/**
 * The better-sqlite3 adapter shares one connection between every query. It serialises
 * transactions against each other but not against plain queries, so a query from another
 * request could run inside someone else's open transaction and be committed or rolled back
 * with it. This wrapper makes every plain query wait while a transaction is open.
 */
export function serializedSqlite(url: string): SqlDriverAdapterFactory {
  const inner = new PrismaBetterSQLite3({ url, timeout: 5000 });
  return {
    provider: "sqlite",
    adapterName: inner.adapterName,
    async connect() {
      const adapter = await inner.connect();
      // WAL (set by the migration runner) is crash-safe with NORMAL and much faster than FULL.
      await adapter.executeScript("PRAGMA synchronous = NORMAL;");
      // biome-ignore lint/plugin: the adapter keeps its better-sqlite3 handle to itself; the statement cache needs it
      reusePreparedStatements((adapter as unknown as { client: Database.Database }).client);
      return new SerializedAdapter(adapter);
    },
  };
}

/** A FIFO lock: `acquire` resolves with the function that releases it. */
class Lock {
  #tail: Promise<void> = Promise.resolve();
  acquire(): Promise<() => void> {
    let release!: () => void;
    const next = new Promise<void>((resolve) => (release = resolve));
    const ready = this.#tail.then(() => release);
    this.#tail = this.#tail.then(() => next);
    return ready;
  }
  async run<T>(work: () => Promise<T>): Promise<T> {
    const release = await this.acquire();
    try {
      return await work();
    } finally {
      release();
    }
  }
}

class SerializedAdapter implements SqlDriverAdapter {
  readonly provider = "sqlite" as const;
  readonly adapterName: string;
  readonly #lock = new Lock();
  readonly #inner: SqlDriverAdapter;

  constructor(inner: SqlDriverAdapter) {
    this.#inner = inner;
    this.adapterName = inner.adapterName;
  }
  queryRaw(query: SqlQuery) {
    return this.#lock.run(() => this.#inner.queryRaw(query));
  }
  executeRaw(query: SqlQuery) {
    return this.#lock.run(() => this.#inner.executeRaw(query));
  }
  executeScript(script: string) {
    return this.#lock.run(() => this.#inner.executeScript(script));
  }
  getConnectionInfo() {
    return this.#inner.getConnectionInfo?.() ?? { supportsRelationJoins: false };
  }
  dispose() {
    return this.#inner.dispose();
  }
  async startTransaction(isolationLevel?: IsolationLevel): Promise<Transaction> {
    const release = await this.#lock.acquire();
    try {
      const tx = await this.#inner.startTransaction(isolationLevel);
      await takeWriteLock(tx);
      // The transaction keeps the lock until it ends. A COMMIT that failed (a deferred
      // constraint, a full disk) may leave SQLite's transaction open: it is rolled back first.
      return endedAnyway(tx, { settle: (open) => open.executeRaw(ROLLBACK), released: release });
    } catch (error) {
      release();
      throw error;
    }
  }
}

const ROLLBACK: SqlQuery = { sql: "ROLLBACK", args: [], argTypes: [] };

/**
 * The adapter begins transactions deferred. One that reads, then writes after another process
 * wrote, fails at once with SQLITE_BUSY, without waiting: its snapshot is stale. A write that
 * changes nothing takes the write lock first, waiting its turn (the busy timeout) like any write.
 * (Not BEGIN IMMEDIATE: the adapter never lets its connection go when its BEGIN fails.)
 */
const WRITE_LOCK: SqlQuery = { sql: "DELETE FROM _migraciones WHERE 0", args: [], argTypes: [] };

async function takeWriteLock(tx: Transaction): Promise<void> {
  try {
    await tx.executeRaw(WRITE_LOCK);
  } catch (error) {
    await tx.executeRaw(ROLLBACK).catch(() => undefined);
    await tx.rollback();
    throw error;
  }
}

// Prisma sends a few hundred distinct statements; more than this many are prepared again.
const PREPARED_STATEMENTS = 1000;

/**
 * The adapter prepares every statement again for each query (its `client` is not part of its
 * typed interface, hence the cast above), and preparing costs about as much as running a simple
 * query. Keeps the most recently used statements prepared; each use binds its own values.
 */
function reusePreparedStatements(client: Database.Database): void {
  const prepare = client.prepare.bind(client);
  const prepared = new Map<string, Database.Statement>();
  const reuse = (sql: string) => {
    let statement = prepared.get(sql);
    if (statement) prepared.delete(sql);
    else statement = prepare(sql);
    prepared.set(sql, statement);
    if (prepared.size > PREPARED_STATEMENTS) prepared.delete(prepared.keys().next().value!);
    return statement;
  };
  // Only what the adapter calls: prepare(sql).run(), or .bind(values) then reader/run/columns/raw().all().
  client.prepare = ((sql: string) => {
    const statement = reuse(sql);
    return {
      run: () => statement.run(),
      bind: (values: unknown[]) => ({
        reader: statement.reader,
        run: () => statement.run(values),
        columns: () => statement.columns(),
        raw: () => ({ all: () => statement.raw(true).all(values) }),
      }),
    };
  }) as never;
}
