import type { Tx } from "../../db/client.js";
import { isMember, responsibleAdmin, type Actor } from "../actor.js";
import type { Deps } from "../deps.js";
import type { AuditAction, AuditTarget } from "./audit-actions.js";

/** The service acting of its own accord (an SOS nobody acknowledged in time, escalated), as audit's actor. */
export const SERVICE = "servicio";

/**
 * Records an administrator's action (or a driver's own change of their payouts, or what the
 * service did by itself) inside the transaction that makes it, so that neither exists without the other.
 */
export async function audit(
  tx: Tx,
  deps: Pick<Deps, "clock">,
  actor: Actor | typeof SERVICE,
  entry: { accion: AuditAction; objetivo_tipo: AuditTarget; objetivo_id: number; detalles?: Record<string, unknown> },
): Promise<void> {
  const service = actor === SERVICE;
  await tx.auditEntry.create({
    data: {
      admin_id: service ? null : responsibleAdmin(actor),
      via: service ? SERVICE : isMember(actor) ? actor.via : "ids",
      accion: entry.accion,
      objetivo_tipo: entry.objetivo_tipo,
      objetivo_id: entry.objetivo_id,
      detalles: entry.detalles ? JSON.stringify(entry.detalles) : null,
      direccion_ip: service ? null : actor.address,
      creado_en: deps.clock.now(),
    },
  });
}
