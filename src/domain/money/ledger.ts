import type { Db, Tx } from "../../db/client.js";
import type { LedgerEntry } from "../../db/models.js";
import type { PlatformMethod } from "../payment-methods.js";

/*
 * The double-entry ledger: whole pesos, each entry's lines summing to zero. A line is positive
 * when it credits an account (what the platform owes it, or has earned) and negative when it
 * debits it (what it owes the platform, or money the platform holds or is owed). Entries are only
 * ever added (the database refuses changes to them); each account's balance is kept in step in
 * the transaction that adds its lines.
 */

export interface Account {
  codigo: string;
  conductor_id?: number;
  empresa_id?: number;
}

/** The platform's own accounts. */
export const PLATFORM = {
  /** Commission earned on trips. */
  commissions: { codigo: "plataforma:comisiones" },
  /** Commission earned on fares the platform collected. */
  paymentCommissions: { codigo: "plataforma:comisiones_pago" },
  /** Fares collected (or to be collected) through the payment provider. */
  collected: (method: PlatformMethod): Account => ({ codigo: `recaudo:${method}` }),
  /** Payouts reserved for drivers and not yet paid. */
  payoutsDue: { codigo: "plataforma:retiros_por_pagar" },
  /** The platform's bank: payouts leave it, drivers' deposits arrive in it. */
  bank: { codigo: "plataforma:bancos" },
  /** The other side of administrators' corrections. */
  adjustments: { codigo: "plataforma:ajustes" },
} as const;

/** What the platform owes a driver (negative: what the driver owes it). */
export const driverAccount = (conductorId: number): Account => ({ codigo: `conductor:${conductorId}`, conductor_id: conductorId });

/** What a line is for: a driver's account has several on one trip. */
export type Concept =
  | "ganancia"
  | "efectivo_cobrado"
  | "comision"
  | "comision_metodo"
  | "comision_empresa"
  | "recaudo"
  | "retiro"
  | "deposito"
  | "ajuste";

export interface Line {
  account: Account;
  concepto: Concept;
  monto: number;
  /** The account's balance may not end below this: the posting fails instead. */
  floor?: number;
}

/** A posting refused because an account would have ended below its floor. */
export class BelowFloor extends Error {
  constructor(readonly account: Account) {
    super(`account ${account.codigo} would end below its floor`);
  }
}

export interface Posting {
  /** What the entry records, once: a second posting with the same key fails. */
  clave: string;
  tipo: "viaje" | "retiro" | "deposito" | "ajuste";
  descripcion: string;
  viaje_id?: number;
  creado_por?: number;
  lines: Line[];
}

/** Adds an entry and its lines, and moves the balances of their accounts. */
export async function post(tx: Tx, at: Date, posting: Posting): Promise<LedgerEntry> {
  const { lines, ...entry } = posting;
  // Accounts in one order, so that two postings never wait on each other's balances.
  const moving = lines.filter((line) => line.monto !== 0).sort((a, b) => a.account.codigo.localeCompare(b.account.codigo));
  if (moving.some((line) => !Number.isSafeInteger(line.monto)))
    throw new Error(`entry ${entry.clave} has an amount in fractions of a peso`);
  if (moving.reduce((sum, line) => sum + line.monto, 0) !== 0) throw new Error(`entry ${entry.clave} does not balance`);
  const created = await tx.ledgerEntry.create({ data: { ...entry, creado_en: at } });
  const accounts: number[] = [];
  for (const { account, monto, floor } of moving) {
    if (floor === undefined) {
      const { id } = await tx.ledgerAccount.upsert({
        where: { codigo: account.codigo },
        create: { ...account, saldo: monto },
        update: { saldo: { increment: monto } },
        select: { id: true },
      });
      accounts.push(id);
      continue;
    }
    // One conditional update: of two postings racing for the same balance, the second sees the first's.
    const { count } = await tx.ledgerAccount.updateMany({
      where: { codigo: account.codigo, saldo: { gte: floor - monto } },
      data: { saldo: { increment: monto } },
    });
    if (count === 0) throw new BelowFloor(account);
    accounts.push((await tx.ledgerAccount.findUniqueOrThrow({ where: { codigo: account.codigo }, select: { id: true } })).id);
  }
  await tx.ledgerLine.createMany({
    data: moving.map(({ concepto, monto }, i) => ({ asiento_id: created.id, cuenta_id: accounts[i]!, concepto, monto })),
  });
  return created;
}

/** A driver's balance: what the platform owes them, negative when they owe it. */
export async function balanceOf(db: Db | Tx, conductorId: number): Promise<number> {
  const account = await db.ledgerAccount.findUnique({ where: { codigo: driverAccount(conductorId).codigo }, select: { saldo: true } });
  return account?.saldo ?? 0;
}

/** Several drivers' balances at once, in one query: a driver without an account has 0. */
export async function balancesOf(db: Db | Tx, conductorIds: number[]): Promise<Map<number, number>> {
  const accounts = await db.ledgerAccount.findMany({
    where: { conductor_id: { in: conductorIds } },
    select: { conductor_id: true, saldo: true },
  });
  const balances = new Map(conductorIds.map((id) => [id, 0]));
  for (const { conductor_id, saldo } of accounts) balances.set(conductor_id!, saldo);
  return balances;
}

/**
 * What is wrong with the ledger, in words (empty when nothing is): an entry whose lines do not
 * sum to zero, lines that do not sum to zero altogether, or an account whose kept balance is not
 * the sum of its lines.
 */
export async function ledgerProblems(db: Db): Promise<string[]> {
  const [unbalanced, total, sums, accounts] = await Promise.all([
    db.ledgerLine.groupBy({ by: ["asiento_id"], _sum: { monto: true }, having: { monto: { _sum: { not: 0 } } } }),
    db.ledgerLine.aggregate({ _sum: { monto: true } }),
    db.ledgerLine.groupBy({ by: ["cuenta_id"], _sum: { monto: true } }),
    db.ledgerAccount.findMany({ select: { id: true, codigo: true, saldo: true } }),
  ]);
  const problems = unbalanced.map(({ asiento_id, _sum }) => `entry ${asiento_id} sums to ${_sum.monto}`);
  if ((total._sum.monto ?? 0) !== 0) problems.push(`the ledger sums to ${total._sum.monto}`);
  const byAccount = new Map(sums.map(({ cuenta_id, _sum }) => [cuenta_id, _sum.monto ?? 0]));
  for (const { id, codigo, saldo } of accounts) {
    const sum = byAccount.get(id) ?? 0;
    if (sum !== saldo) problems.push(`account ${codigo} keeps ${saldo} but its lines sum to ${sum}`);
  }
  return problems;
}
