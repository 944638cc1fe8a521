import { z } from "zod";
import type { Actor } from "../actor.js";
import { pageFields, pageOf } from "../admin/paging.js";
import type { Deps } from "../deps.js";
import { isoDate, oneOf, optional, parseInput, positiveId, type Raw } from "../validation.js";
import { MONEY_RULES, moneyActor } from "./access.js";
import { driverAccount } from "./ledger.js";

const ENTRY_TYPES = ["viaje", "retiro", "deposito", "ajuste"] as const;

const listSchema = z.object({
  tipo: optional(oneOf(ENTRY_TYPES)),
  conductor_id: optional(positiveId()),
  desde: optional(isoDate()),
  hasta: optional(isoDate({ endOfDay: true })),
  ...pageFields,
});

/** The ledger's entries with their lines, newest first, for administrators: by kind, by driver, by Bogotá days. */
export async function ledgerEntries(deps: Deps, actor: Actor, input: Raw<typeof listSchema>) {
  moneyActor(actor, MONEY_RULES.operate);
  const { tipo, conductor_id, desde, hasta, ...paging } = parseInput(listSchema, input);
  const where = {
    ...(tipo ? { tipo } : {}),
    ...(conductor_id ? { movimientos: { some: { cuenta: { codigo: driverAccount(conductor_id).codigo } } } } : {}),
    ...(desde || hasta ? { creado_en: { ...(desde ? { gte: desde } : {}), ...(hasta ? { lte: hasta } : {}) } } : {}),
  };
  const page = pageOf(paging);
  const [rows, total] = await Promise.all([
    deps.db.ledgerEntry.findMany({
      where,
      orderBy: { id: "desc" },
      skip: page.skip,
      take: page.take,
      include: { movimientos: { include: { cuenta: { select: { codigo: true } } }, orderBy: { id: "asc" } } },
    }),
    deps.db.ledgerEntry.count({ where }),
  ]);
  const asientos = rows.map(({ movimientos, ...entry }) => ({
    ...entry,
    movimientos: movimientos.map(({ cuenta, concepto, monto }) => ({ cuenta: cuenta.codigo, concepto, monto })),
  }));
  return { asientos, pagination: page.pagination(total) };
}

export type LedgerEntryView = Awaited<ReturnType<typeof ledgerEntries>>["asientos"][number];
