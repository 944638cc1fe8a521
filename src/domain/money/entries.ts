import { z } from "zod";
import type { Actor } from "../actor.js";
import type { Prisma } from "../../db/client.js";
import { byColumn, orderOf, pageFields, pageOf, sortFields, type Sorting } from "../paging.js";
import type { Deps } from "../deps.js";
import { isoDate, oneOf, optional, parseInput, positiveId, type Raw } from "../validation.js";
import { MONEY_RULES, moneyActor } from "./access.js";
import { driverAccount } from "./ledger.js";

export const ENTRY_TYPES = ["viaje", "retiro", "deposito", "ajuste"] as const;

const ENTRY_SORTS = ["id", "creado_en", "tipo"] as const;

export const ENTRY_SORTING: Sorting<(typeof ENTRY_SORTS)[number], Prisma.LedgerEntryOrderByWithRelationInput> = {
  columns: { id: byColumn("id"), creado_en: byColumn("creado_en"), tipo: byColumn("tipo") },
  sort: "id",
  order: "desc",
};

const listSchema = z.object({
  tipo: optional(oneOf(ENTRY_TYPES)),
  conductor_id: optional(positiveId()),
  desde: optional(isoDate()),
  hasta: optional(isoDate({ endOfDay: true })),
  ...pageFields,
  ...sortFields(ENTRY_SORTS),
});

/** The ledger's entries with their lines, newest first unless sorted otherwise, for administrators: by kind, by driver, by Bogotá days. */
export async function ledgerEntries(deps: Deps, actor: Actor, input: Raw<typeof listSchema>) {
  moneyActor(actor, MONEY_RULES.operate);
  const { tipo, conductor_id, desde, hasta, sort, order, ...paging } = parseInput(listSchema, input);
  const where = {
    ...(tipo ? { tipo } : {}),
    ...(conductor_id ? { movimientos: { some: { cuenta: { codigo: driverAccount(conductor_id).codigo } } } } : {}),
    ...(desde || hasta ? { creado_en: { ...(desde ? { gte: desde } : {}), ...(hasta ? { lte: hasta } : {}) } } : {}),
  };
  const page = pageOf(paging);
  const [rows, total] = await Promise.all([
    deps.db.ledgerEntry.findMany({
      where,
      orderBy: orderOf(ENTRY_SORTING, { sort, order }),
      skip: page.skip,
      take: page.take,
      include: { movimientos: { include: { cuenta: { select: { codigo: true } } }, orderBy: { id: "asc" } } },
    }),
    deps.db.ledgerEntry.count({ where }),
  ]);
  const items = rows.map(({ movimientos, ...entry }) => ({
    ...entry,
    movimientos: movimientos.map(({ cuenta, concepto, monto }) => ({ cuenta: cuenta.codigo, concepto, monto })),
  }));
  return { items, pagination: page.pagination(total) };
}

export type LedgerEntryView = Awaited<ReturnType<typeof ledgerEntries>>["items"][number];
