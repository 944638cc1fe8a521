import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaClient, Prisma } from "../generated/sqlite/client.js";
import { serializedSqlite } from "./sqlite-adapter.js";
import { databaseProvider, sqliteFile, type Provider } from "./url.js";

/**
 * Both generated clients have the same models and methods; the SQLite one's types stand for
 * both so that the rest of the code is written once.
 */
export type Db = PrismaClient;
export type Tx = Prisma.TransactionClient;
export { Prisma };

export interface Database {
  prisma: Db;
  provider: Provider;
  ping(): Promise<void>;
  close(): Promise<void>;
  /** Connections lent out and queries waiting for one; null without a pool (SQLite has one connection). */
  poolState(): { inUse: number; waiting: number } | null;
}

// Transactions wait for each other on SQLite (one writer), so allow them time to queue.
const transactionOptions = { maxWait: 10_000, timeout: 15_000 };

export interface DatabaseOptions {
  poolSize?: number;
  poolTimeoutMs?: number;
  /** Called with the SQL of every query (tests count them to catch N+1 patterns). */
  onQuery?: (sql: string) => void;
}

export async function openDatabase(url: string, options: DatabaseOptions = {}): Promise<Database> {
  const provider = databaseProvider(url);
  const log = options.onQuery ? [{ emit: "event" as const, level: "query" as const }] : [];
  let prisma: Db;
  let pool: pg.Pool | null = null;
  if (provider === "sqlite") {
    // biome-ignore lint/plugin: the client's type carries its log options; Db is the same client without them
    prisma = new PrismaClient({ adapter: serializedSqlite(`file:${sqliteFile(url)}`), transactionOptions, log }) as unknown as Db;
  } else {
    const { PrismaClient: PostgresClient } = await import("../generated/postgresql/client.js");
    // A query that cannot get a connection in time fails (answered 503) rather than waiting without end.
    // The pool is made here, not by the adapter, so that its counts can be read.
    pool = new pg.Pool({ connectionString: url, max: options.poolSize ?? 10, connectionTimeoutMillis: options.poolTimeoutMs ?? 5000 });
    const adapter = new PrismaPg(pool, { disposeExternalPool: true });
    // biome-ignore lint/plugin: the PostgreSQL client has the same models and methods (see Db)
    prisma = new PostgresClient({ adapter, transactionOptions, log }) as unknown as Db;
  }
  if (options.onQuery) {
    const onQuery = options.onQuery;
    // biome-ignore lint/plugin: $on("query") is typed only for a client whose log options are known where it is built
    (prisma as unknown as { $on(event: "query", cb: (e: { query: string }) => void): void }).$on("query", (e) => onQuery(e.query));
  }
  await prisma.$connect();
  return {
    prisma,
    provider,
    ping: async () => {
      await prisma.$queryRawUnsafe("SELECT 1");
    },
    close: () => prisma.$disconnect(),
    poolState: () => pool && { inUse: pool.totalCount - pool.idleCount, waiting: pool.waitingCount },
  };
}

// A pool or transaction wait that ran out, a write conflict, too many connections.
const OVERLOAD_CODES = new Set(["P2024", "P2028", "P2034", "P2037"]);

/** True when the database is too busy to take the work now, so that the caller may retry it. */
export function isOverloaded(error: unknown): boolean {
  if (error instanceof Prisma.PrismaClientKnownRequestError) return OVERLOAD_CODES.has(error.code);
  return error instanceof Error && /timeout exceeded when trying to connect|database is locked/i.test(error.message);
}

/** True when `error` is a unique-constraint violation (the same code on both providers). */
export const isUniqueViolation = (error: unknown): error is Prisma.PrismaClientKnownRequestError =>
  error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002";
