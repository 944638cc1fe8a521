/*
 * Prisma gathers the statements a transaction is sent within one tick into one batch and runs
 * them one after another; when one fails, it runs none of the rest and hands each of them
 * `undefined` as its answer (6.19, and 7.10 still). A read cut off by a database restart then
 * looked like "no such row" next to the statement that failed. Each transaction's statements are
 * sent one at a time instead, so each fails or answers on its own. They ran in turn anyway, on
 * the transaction's one connection.
 */

const noop = () => undefined;

type Send = (...args: unknown[]) => PromiseLike<unknown>;

/** A transaction client whose statements wait for the one before to end before they are sent. */
function inTurn<T extends object>(tx: T): T {
  let turn: Promise<unknown> = Promise.resolve();
  const queued =
    (send: Send, self: object) =>
    (...args: unknown[]) => {
      const run = () => send.apply(self, args);
      const sent = turn.then(run, run);
      turn = sent.then(noop, noop);
      return sent;
    };
  const delegates = new Map<PropertyKey, object>();
  const delegate = (model: object) =>
    new Proxy(model, {
      get: (target, name) => {
        const value = Reflect.get(target, name);
        return typeof value === "function" ? queued(value as Send, target) : value;
      },
    });
  return new Proxy(tx, {
    get(target, name) {
      const value = Reflect.get(target, name);
      if (typeof name !== "string" || value === null) return value;
      // $queryRaw, $executeRawUnsafe and the others send statements too.
      if (typeof value === "function") return name.startsWith("$") ? queued(value as Send, target) : value;
      if (typeof value !== "object" || name.startsWith("$") || name.startsWith("_")) return value;
      let model = delegates.get(name);
      if (!model) {
        model = delegate(value);
        delegates.set(name, model);
      }
      return model;
    },
  });
}

type Transaction = (work: unknown, options?: unknown) => Promise<unknown>;

/** The client, with every interactive transaction's statements sent one at a time (see above). */
export function statementsInTurn<C extends { $transaction: unknown }>(db: C): C {
  const transaction = (db.$transaction as Transaction).bind(db);
  const inTurnTransaction = (work: unknown, options?: unknown) =>
    typeof work === "function"
      ? transaction((tx: object) => (work as (tx: object) => unknown)(inTurn(tx)), options)
      : transaction(work, options);
  return new Proxy(db, {
    get: (target, name, receiver) => (name === "$transaction" ? inTurnTransaction : Reflect.get(target, name, receiver)),
  });
}
