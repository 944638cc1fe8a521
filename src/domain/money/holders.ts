import type { Tx } from "../../db/client.js";
import type { Notification } from "../../db/models.js";
import { managersOf } from "../company-records.js";
import { createNotification, type NotificationContent } from "../notifications/notifications.js";
import { driverAccount, type Account } from "./ledger.js";

/** Whose money a balance, a payout account or a payout is: a driver's, or a company's. */
export type Holder = { conductor_id: number; empresa_id: null } | CompanyHolder;
type CompanyHolder = { conductor_id: null; empresa_id: number };

export const driverHolder = (conductorId: number): Holder => ({ conductor_id: conductorId, empresa_id: null });
export const companyHolder = (empresaId: number): CompanyHolder => ({ conductor_id: null, empresa_id: empresaId });

/** The holder of a row that names one of them (a payout, a payout account). */
export function holderOf(row: { conductor_id: number | null; empresa_id: number | null }): Holder {
  if (row.conductor_id !== null) return driverHolder(row.conductor_id);
  if (row.empresa_id !== null) return companyHolder(row.empresa_id);
  throw new Error("a money row names neither a driver nor a company");
}

/** What the platform owes a company: its share of its drivers' commissions, less its payouts. */
export const companyAccount = (empresaId: number): Account => ({ codigo: `empresa:${empresaId}`, empresa_id: empresaId });

export const holderAccount = (holder: Holder): Account =>
  holder.conductor_id !== null ? driverAccount(holder.conductor_id) : companyAccount(holder.empresa_id);

/** A holder as the target of an audit entry. */
export const auditTarget = (holder: Holder) =>
  holder.conductor_id !== null
    ? { objetivo_tipo: "conductor" as const, objetivo_id: holder.conductor_id }
    : { objetivo_tipo: "empresa" as const, objetivo_id: holder.empresa_id };

/** The key a holder's payouts are announced under: a driver's id, a company's id negated (0 is everybody). */
export const feedKey = (holder: Holder) => (holder.conductor_id !== null ? holder.conductor_id : -holder.empresa_id);

/** Tells a holder something on their feed: the driver, or every manager of the company. */
export async function notifyHolder(tx: Tx, holder: Holder, content: NotificationContent): Promise<Notification[]> {
  if (holder.conductor_id !== null) return [await createNotification(tx, holder.conductor_id, content)];
  const managers = await tx.user.findMany({ where: managersOf(holder.empresa_id), select: { id: true } });
  return Promise.all(managers.map((manager) => createNotification(tx, manager.id, content)));
}
