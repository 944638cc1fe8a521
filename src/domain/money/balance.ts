import { z } from "zod";
import type { Actor } from "../actor.js";
import type { Prisma } from "../../db/client.js";
import { byColumn, orderOf, pageFields, pageOf, sortFields, type Sorting } from "../paging.js";
import type { Deps } from "../deps.js";
import { loadDriver } from "../drivers/readiness.js";
import { parseInput, type Raw } from "../validation.js";
import { companyReadHolder, moneySubject } from "./access.js";
import { driverHolder, type Holder, holderAccount } from "./holders.js";
import { OPEN_PAYOUT_STATES } from "./payout-states.js";

/**
 * What a driver's or a company's balance says besides whose it is, in whole pesos: what the
 * platform owes them (saldo) and they may withdraw (disponible), what is reserved for payouts
 * under way (en_retiro), what has been paid to them (total_retirado), and the smallest payout
 * they may ask for (retiro_minimo).
 */
async function balanceTerms(deps: Deps, holder: Holder) {
  const [account, open, paid] = await Promise.all([
    deps.db.ledgerAccount.findUnique({ where: { codigo: holderAccount(holder).codigo }, select: { saldo: true } }),
    deps.db.payout.aggregate({ where: { ...holder, estado: { in: [...OPEN_PAYOUT_STATES] } }, _sum: { monto: true } }),
    deps.db.payout.aggregate({ where: { ...holder, estado: "pagado" }, _sum: { monto: true } }),
  ]);
  const saldo = account?.saldo ?? 0;
  return {
    saldo,
    disponible: Math.max(0, saldo),
    en_retiro: open._sum.monto ?? 0,
    total_retirado: paid._sum.monto ?? 0,
    retiro_minimo: deps.money.payoutMinimum,
  };
}

/** A driver's money (balanceTerms), and what they owe the platform (deuda). */
export async function driverBalance(deps: Deps, actor: Actor, conductor?: number | null) {
  const conductorId = moneySubject(actor, conductor);
  await loadDriver(deps.db, conductorId);
  const terms = await balanceTerms(deps, driverHolder(conductorId));
  return { conductor_id: conductorId, ...terms, deuda: Math.max(0, -terms.saldo) };
}

export type DriverBalance = Awaited<ReturnType<typeof driverBalance>>;

const MOVEMENT_SORTS = ["id", "fecha", "monto"] as const;

export const MOVEMENT_SORTING: Sorting<(typeof MOVEMENT_SORTS)[number], Prisma.LedgerLineOrderByWithRelationInput> = {
  columns: { id: byColumn("id"), fecha: (order) => ({ asiento: { creado_en: order } }), monto: byColumn("monto") },
  sort: "id",
  order: "desc",
};

const movementsSchema = z.object({ ...pageFields, ...sortFields(MOVEMENT_SORTS) });

type MovementsInput = Raw<typeof movementsSchema>;

/**
 * A driver's or a company's movements, newest first unless sorted otherwise, a page at a time:
 * each line of the ledger on their account.
 */
async function movementsOf(deps: Deps, holder: Holder, input: MovementsInput) {
  const { sort, order, ...paging } = parseInput(movementsSchema, input);
  const page = pageOf(paging);
  const where = { cuenta: { codigo: holderAccount(holder).codigo } };
  const [lines, total] = await Promise.all([
    deps.db.ledgerLine.findMany({
      where,
      orderBy: orderOf(MOVEMENT_SORTING, { sort, order }),
      skip: page.skip,
      take: page.take,
      include: { asiento: true },
    }),
    deps.db.ledgerLine.count({ where }),
  ]);
  const items = lines.map(({ id, concepto, monto, asiento }) => ({
    id,
    fecha: asiento.creado_en,
    tipo: asiento.tipo,
    concepto,
    monto,
    descripcion: asiento.descripcion,
    viaje_id: asiento.viaje_id,
  }));
  return { items, pagination: page.pagination(total) };
}

/** A driver's movements: the caller's own, or those of the driver an administrator names. */
export const driverMovements = (deps: Deps, actor: Actor, input: MovementsInput & { conductor_id?: number | null }) =>
  movementsOf(deps, driverHolder(moneySubject(actor, input.conductor_id)), input);

/** A company's movements: the calling manager's company's, or those of the company an administrator names. */
export const companyMovements = async (deps: Deps, actor: Actor, input: MovementsInput & { empresa_id?: number | null }) =>
  movementsOf(deps, await companyReadHolder(deps, actor, input.empresa_id), input);

export type Movement = Awaited<ReturnType<typeof movementsOf>>["items"][number];

/**
 * A company's money (balanceTerms): its share of its drivers' commissions not yet paid out, what
 * is reserved for payouts under way and what has been paid to it.
 */
export async function companyBalance(deps: Deps, actor: Actor, empresaId?: number | null) {
  const holder = await companyReadHolder(deps, actor, empresaId);
  return { empresa_id: holder.empresa_id, ...(await balanceTerms(deps, holder)) };
}

export type CompanyBalance = Awaited<ReturnType<typeof companyBalance>>;

/** A driver's or a company's balance, as driverBalance or companyBalance reads it for the caller. */
export const holderBalance = (deps: Deps, actor: Actor, holder: Holder) =>
  holder.conductor_id !== null ? driverBalance(deps, actor, holder.conductor_id) : companyBalance(deps, actor, holder.empresa_id);
