import pg from "pg";
import { PrismaClient, Prisma } from "../generated/sqlite/client.js";
import { releasingPg } from "./pg-adapter.js";
import { postgresReader, sqliteReader, type Reader } from "./readers.js";
import { serializedSqlite } from "./sqlite-adapter.js";
import { statementsInTurn } from "./statements-in-turn.js";
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
  /** Runs planned reads (planned-reads.ts) on the driver itself; null for a database only in memory. */
  reader: Reader | null;
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
    // biome-ignore lint/plugin: the PostgreSQL client has the same models and methods (see Db)
    prisma = new PostgresClient({ adapter: releasingPg(pool), transactionOptions, log }) as unknown as Db;
  }
  if (options.onQuery) {
    const onQuery = options.onQuery;
    // biome-ignore lint/plugin: $on("query") is typed only for a client whose log options are known where it is built
    (prisma as unknown as { $on(event: "query", cb: (e: { query: string }) => void): void }).$on("query", (e) => onQuery(e.query));
  }
  await prisma.$connect();
  const file = provider === "sqlite" ? sqliteFile(url) : null;
  const reader = pool ? postgresReader(pool, options.onQuery) : file !== ":memory:" ? sqliteReader(file!, options.onQuery) : null;
  return {
    prisma: statementsInTurn(prisma),
    provider,
    ping: async () => {
      await prisma.$queryRawUnsafe("SELECT 1");
    },
    close: async () => {
      reader?.close();
      await prisma.$disconnect();
    },
    reader,
    poolState: () => pool && { inUse: pool.totalCount - pool.idleCount, waiting: pool.waitingCount },
  };
}

/**
 * Prisma's codes for a database that cannot serve now: not reachable (P1001, P1002), a connection
 * that timed out or SQLite busy (P1008), a connection closed (P1017), a wait for a connection or a
 * transaction that ran out (P2024, P2028), a write conflict (P2034), too many connections (P2037).
 */
const PRISMA_CODES = new Set(["P1001", "P1002", "P1008", "P1017", "P2024", "P2028", "P2034", "P2037"]);
/**
 * PostgreSQL's: a connection exception (class 08), the server shutting down, crashed or starting up
 * (57P01–57P03), too many connections (53300), a serialization failure or deadlock (40001, 40P01).
 */
const SQLSTATES = /^(08[0-9A-Z]{3}|57P0[123]|53300|40001|40P01)$/;
/** Node's, for a connection refused, cut or timed out, or a name that does not resolve now. */
const SOCKET_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "EPIPE", "ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH", "ENOTFOUND", "EAI_AGAIN"]);
/** What the PostgreSQL adapter calls those when it has translated them. */
const ADAPTER_KINDS = new Set([
  "DatabaseNotReachable",
  "ConnectionClosed",
  "SocketTimeout",
  "TooManyConnections",
  "TransactionWriteConflict",
]);
/** Errors node-postgres, its pool and SQLite raise with no code, which Prisma hands on as they are. */
const MESSAGES = /^Connection terminated|is not queryable|timeout exceeded when trying to connect|database is locked/i;

const lastLine = (text: unknown) => (typeof text === "string" ? (text.trim().split("\n").pop() ?? "").trim() : "");

function reasonOf(node: object): string | null {
  const { code, kind, message } = node as { code?: unknown; kind?: unknown; message?: unknown };
  if (typeof code === "string" && (PRISMA_CODES.has(code) || SOCKET_CODES.has(code) || SQLSTATES.test(code))) {
    return `${code} ${lastLine(message)}`.trim();
  }
  if (typeof kind === "string" && ADAPTER_KINDS.has(kind)) return kind;
  return typeof message === "string" && MESSAGES.test(message) ? lastLine(message) : null;
}

/**
 * Why the database cannot serve now, in a few words, or null when `error` is not that: lost,
 * refused, restarting, or too busy (no free connection in time, a write conflict, SQLite locked).
 * The caller is answered 503 and may retry; a write whose connection broke as it committed may
 * have happened, which an Idempotency-Key makes safe to retry. Prisma hands these on in several
 * wrappings (its own errors, the adapter's DriverAdapterError and its `cause`, node-postgres's
 * errors as they are), and GraphQL wraps them again: every layer is looked at.
 */
export function unavailableReason(error: unknown): string | null {
  const seen = new Set<object>();
  const pending: unknown[] = [error];
  while (pending.length > 0) {
    const node = pending.shift();
    if (typeof node !== "object" || node === null || seen.has(node)) continue;
    seen.add(node);
    const reason = reasonOf(node);
    if (reason) return reason;
    const { cause, originalError, meta } = node as { cause?: unknown; originalError?: unknown; meta?: { driverAdapterError?: unknown } };
    pending.push(cause, originalError, meta?.driverAdapterError);
  }
  return null;
}

/** True when the database cannot serve now (see unavailableReason): answered 503, and the caller may retry. */
export const isUnavailable = (error: unknown): boolean => unavailableReason(error) !== null;

/** True when `error` is a unique-constraint violation (the same code on both providers). */
export const isUniqueViolation = (error: unknown): error is Prisma.PrismaClientKnownRequestError =>
  error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002";
