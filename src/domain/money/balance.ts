import { z } from "zod";
import type { Actor } from "../actor.js";
import type { Prisma } from "../../db/client.js";
import { byColumn, orderOf, pageFields, pageOf, sortFields, type Sorting } from "../admin/paging.js";
import type { Deps } from "../deps.js";
import { loadDriver } from "../drivers/readiness.js";
import { parseInput, type Raw } from "../validation.js";
import { moneySubject } from "./access.js";
import { balanceOf, driverAccount } from "./ledger.js";
import { OPEN_PAYOUT_STATES } from "./payout-states.js";

/**
 * A driver's money in whole pesos: what the platform owes them and they may withdraw (disponible),
 * what they owe it (deuda), what is reserved for payouts under way (en_retiro) and what has been
 * paid to them (total_retirado).
 */
export async function driverBalance(deps: Deps, actor: Actor, conductor?: number | null) {
  const conductorId = moneySubject(actor, conductor);
  await loadDriver(deps.db, conductorId);
  const [saldo, open, paid] = await Promise.all([
    balanceOf(deps.db, conductorId),
    deps.db.payout.aggregate({ where: { conductor_id: conductorId, estado: { in: [...OPEN_PAYOUT_STATES] } }, _sum: { monto: true } }),
    deps.db.payout.aggregate({ where: { conductor_id: conductorId, estado: "pagado" }, _sum: { monto: true } }),
  ]);
  return {
    conductor_id: conductorId,
    saldo,
    disponible: Math.max(0, saldo),
    deuda: Math.max(0, -saldo),
    en_retiro: open._sum.monto ?? 0,
    total_retirado: paid._sum.monto ?? 0,
  };
}

export type DriverBalance = Awaited<ReturnType<typeof driverBalance>>;

const MOVEMENT_SORTS = ["id", "fecha", "monto"] as const;

export const MOVEMENT_SORTING: Sorting<(typeof MOVEMENT_SORTS)[number], Prisma.LedgerLineOrderByWithRelationInput> = {
  columns: { id: byColumn("id"), fecha: (order) => ({ asiento: { creado_en: order } }), monto: byColumn("monto") },
  sort: "id",
  order: "desc",
};

const movementsSchema = z.object({ ...pageFields, ...sortFields(MOVEMENT_SORTS) });

/** A driver's movements, newest first unless sorted otherwise, a page at a time: each line of the ledger on their account. */
export async function driverMovements(deps: Deps, actor: Actor, input: Raw<typeof movementsSchema> & { conductor_id?: number | null }) {
  const conductorId = moneySubject(actor, input.conductor_id);
  const { sort, order, ...paging } = parseInput(movementsSchema, input);
  const page = pageOf(paging);
  const where = { cuenta: { codigo: driverAccount(conductorId).codigo } };
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

export type DriverMovement = Awaited<ReturnType<typeof driverMovements>>["items"][number];
