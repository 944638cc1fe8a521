import { z } from "zod";
import type { Db, Prisma, Tx } from "../../db/client.js";
import { authorize, isMember, responsibleAdmin, type Actor } from "../actor.js";
import type { Deps } from "../deps.js";
import { isoDate, oneOf, optional, parseInput, positiveId, type Raw } from "../validation.js";
import { ADMIN_RULES } from "./access.js";
import { pageFields, pageOf } from "./paging.js";

export const AUDIT_ACTIONS = [
  "actualizar_usuario",
  "eliminar_usuario",
  "suspender_usuario",
  "activar_usuario",
  "aprobar_conductor",
  "rechazar_conductor",
  "actualizar_tarifa",
  "crear_empresa",
  "actualizar_empresa",
  "eliminar_empresa",
  "actualizar_configuracion",
  "verificar_cuenta_retiro",
  "solicitar_retiro",
  "cancelar_retiro",
  "aprobar_retiro",
  "rechazar_retiro",
  "pagar_retiro",
  "retiro_fallido",
  "registrar_deposito",
  "ajustar_saldo",
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const AUDIT_TARGETS = ["usuario", "conductor", "tarifa", "empresa", "configuracion", "retiro"] as const;
export type AuditTarget = (typeof AUDIT_TARGETS)[number];

/**
 * Records an administrator's action (or a driver's own change of their payouts) inside the
 * transaction that makes it, so that neither exists without the other.
 */
export async function audit(
  tx: Tx,
  deps: Pick<Deps, "clock">,
  actor: Actor,
  entry: { accion: AuditAction; objetivo_tipo: AuditTarget; objetivo_id: number; detalles?: Record<string, unknown> },
): Promise<void> {
  await tx.auditEntry.create({
    data: {
      admin_id: responsibleAdmin(actor),
      via: isMember(actor) ? actor.via : "ids",
      accion: entry.accion,
      objetivo_tipo: entry.objetivo_tipo,
      objetivo_id: entry.objetivo_id,
      detalles: entry.detalles ? JSON.stringify(entry.detalles) : null,
      direccion_ip: actor.address,
      creado_en: deps.clock.now(),
    },
  });
}

const listSchema = z.object({
  ...pageFields,
  accion: optional(oneOf(AUDIT_ACTIONS)),
  admin_id: optional(positiveId()),
  objetivo_tipo: optional(oneOf(AUDIT_TARGETS)),
  objetivo_id: optional(positiveId()),
  desde: optional(isoDate()),
  hasta: optional(isoDate({ endOfDay: true })),
});

/** The audit log, newest first, filtered by action, administrator, target and dates. */
export async function auditLog(deps: Deps, actor: Actor, input: Raw<typeof listSchema>) {
  authorize(actor, ADMIN_RULES.auditLog);
  const { page, per_page, desde, hasta, ...filters } = parseInput(listSchema, input);
  const { skip, take, pagination } = pageOf({ page, per_page });
  const where = {
    ...Object.fromEntries(Object.entries(filters).filter(([, value]) => value !== undefined)),
    ...(desde || hasta ? { creado_en: { ...(desde ? { gte: desde } : {}), ...(hasta ? { lte: hasta } : {}) } } : {}),
  };
  const [total, entradas] = await Promise.all([deps.db.auditEntry.count({ where }), latestEntries(deps.db, { where, skip, take })]);
  return { entradas, pagination: pagination(total) };
}

/** Entries newest first, each with its administrator's name (null when the call named none, or the account is gone). */
export async function latestEntries(db: Db, page: { where?: Prisma.AuditEntryWhereInput; skip?: number; take: number }) {
  const rows = await db.auditEntry.findMany({ ...page, orderBy: [{ creado_en: "desc" }, { id: "desc" }] });
  // The administrators of a page in one query; admin_id is kept without a foreign key, so the log outlives accounts.
  const ids = [...new Set(rows.flatMap((row) => (row.admin_id === null ? [] : [row.admin_id])))];
  const admins = await db.user.findMany({
    where: { id: { in: ids } },
    select: { id: true, nombre: true, apellido: true, email: true },
  });
  const byId = new Map(admins.map((admin) => [admin.id, admin]));
  return rows.map((row) => ({ ...row, administrador: row.admin_id === null ? null : (byId.get(row.admin_id) ?? null) }));
}
