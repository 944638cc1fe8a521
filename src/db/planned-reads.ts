import type { Db } from "./client.js";
import { modelOf, ReadPlanner, type ReadKind } from "./read-plan.js";
import type { Reader } from "./readers.js";
import { inUnit } from "./unit.js";
import type { Provider } from "./url.js";

type Delegates = { [K in keyof Db]: Db[K] extends { findMany: unknown } ? K : never }[keyof Db];
/** Prisma's reads of every model, planned as one statement run by the driver when they can be. */
export type Reads = { [K in Delegates]: Pick<Db[K], ReadKind> };
/** What reads these models: `deps.reads`, or the client itself (`deps.db`, a transaction). */
export type ReadsOf<K extends Delegates> = Pick<Reads, K>;

/**
 * Reads as `db` makes them, answered the same: planned and run by `reader` when the read is simple
 * enough (see read-plan.ts) and no unit of work is open in the caller's scope; otherwise by `db`,
 * inside a unit its transaction, so that a request reads what it wrote.
 */
export function plannedReads(db: Db, provider: Provider, reader: Reader | null): Reads {
  const planner = new ReadPlanner(provider);
  const delegates = new Map<string, Record<ReadKind, (args?: Record<string, unknown>) => Promise<unknown>>>();
  const read = async (delegate: string, kind: ReadKind, args?: Record<string, unknown>) => {
    const model = modelOf(delegate);
    const plan = reader && model && !inUnit() ? planner.plan(model, kind, args) : null;
    // biome-ignore lint/plugin: every delegate has these three reads, each taking its own arguments
    if (!plan) return (db as unknown as Record<string, Record<ReadKind, (a: unknown) => Promise<unknown>>>)[delegate]![kind](args);
    const rows = plan.build(await reader!.run(plan.sql, plan.params));
    return kind === "findMany" ? rows : (rows[0] ?? null);
  };
  const reads = new Proxy(
    {},
    {
      get(_target, delegate) {
        if (typeof delegate !== "string") return undefined;
        let methods = delegates.get(delegate);
        if (!methods) {
          methods = {
            findUnique: (args) => read(delegate, "findUnique", args),
            findFirst: (args) => read(delegate, "findFirst", args),
            findMany: (args) => read(delegate, "findMany", args),
          };
          delegates.set(delegate, methods);
        }
        return methods;
      },
    },
  );
  // biome-ignore lint/plugin: the proxy answers each delegate's reads with Prisma's own types (see `read`)
  return reads as unknown as Reads;
}
