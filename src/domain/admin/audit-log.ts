import { z } from "zod";
import type { Db, Prisma } from "../../db/client.js";
import { authorize, type Actor } from "../actor.js";
import { AUDIT_ACTIONS, AUDIT_TARGETS, auditSearch } from "../audit/audit-actions.js";
import type { Deps } from "../deps.js";
import { byColumn, orderOf, pageFields, pageOf, sortFields, type Sorting } from "../paging.js";
import { isoDate, oneOf, optional, parseInput, positiveId, text, type Raw } from "../validation.js";
import { ADMIN_RULES } from "./access.js";

const AUDIT_SORTS = ["creado_en", "id", "accion"] as const;

export const AUDIT_SORTING: Sorting<(typeof AUDIT_SORTS)[number], Prisma.AuditEntryOrderByWithRelationInput> = {
  columns: { creado_en: byColumn("creado_en"), id: byColumn("id"), accion: byColumn("accion") },
  sort: "creado_en",
  order: "desc",
};

const listSchema = z.object({
  ...pageFields,
  ...sortFields(AUDIT_SORTS),
  search: optional(text(100)),
  accion: optional(oneOf(AUDIT_ACTIONS)),
  admin_id: optional(positiveId()),
  objetivo_tipo: optional(oneOf(AUDIT_TARGETS)),
  objetivo_id: optional(positiveId()),
  desde: optional(isoDate()),
  hasta: optional(isoDate({ endOfDay: true })),
});

/** The audit log, newest first unless sorted otherwise, filtered by action, administrator, target and dates, and searched. */
export async function auditLog(deps: Deps, actor: Actor, input: Raw<typeof listSchema>) {
  authorize(actor, ADMIN_RULES.auditLog);
  const { page, per_page, desde, hasta, search, sort, order, ...filters } = parseInput(listSchema, input);
  const { skip, take, pagination } = pageOf({ page, per_page });
  const where = {
    ...Object.fromEntries(Object.entries(filters).filter(([, value]) => value !== undefined)),
    ...(desde || hasta ? { creado_en: { ...(desde ? { gte: desde } : {}), ...(hasta ? { lte: hasta } : {}) } } : {}),
    ...(search ? auditSearch(deps.provider, search) : {}),
  };
  const orderBy = orderOf(AUDIT_SORTING, { sort, order });
  const [total, items] = await Promise.all([deps.db.auditEntry.count({ where }), latestEntries(deps.db, { where, skip, take, orderBy })]);
  return { items, pagination: pagination(total) };
}

/** Entries newest first (or as `orderBy` says), each with its administrator's name (null when the call named none, or the account is gone). */
export async function latestEntries(
  db: Db,
  page: { where?: Prisma.AuditEntryWhereInput; skip?: number; take: number; orderBy?: Prisma.AuditEntryOrderByWithRelationInput[] },
) {
  const rows = await db.auditEntry.findMany({ ...page, orderBy: page.orderBy ?? orderOf(AUDIT_SORTING, {}) });
  // The administrators of a page in one query; admin_id is kept without a foreign key, so the log outlives accounts.
  const ids = [...new Set(rows.flatMap((row) => (row.admin_id === null ? [] : [row.admin_id])))];
  const admins = await db.user.findMany({
    where: { id: { in: ids } },
    select: { id: true, nombre: true, apellido: true, email: true },
  });
  const byId = new Map(admins.map((admin) => [admin.id, admin]));
  return rows.map((row) => ({ ...row, administrador: row.admin_id === null ? null : (byId.get(row.admin_id) ?? null) }));
}
