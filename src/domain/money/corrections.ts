import { randomUUID } from "node:crypto";
import { z } from "zod";
import type { Actor } from "../actor.js";
import { audit } from "../audit/audit.js";
import { getCompany } from "../company-records.js";
import type { Deps } from "../deps.js";
import { ValidationError } from "../errors.js";
import { loadDriver } from "../drivers/readiness.js";
import { announce } from "../notifications/notifications.js";
import { exactlyOne, integer, optional, parseInput, positiveId, text, type Raw } from "../validation.js";
import { MONEY_RULES, moneyActor } from "./access.js";
import { announceBalance } from "./announcements.js";
import { auditTarget, companyHolder, driverHolder, type Holder, holderAccount, notifyHolder } from "./holders.js";
import { BelowFloor, driverAccount, type Line, PLATFORM, post } from "./ledger.js";
import { formatPesos } from "../pesos.js";

const MAX_PESOS = 100_000_000;

const depositSchema = z.object({
  conductor_id: positiveId(),
  monto: integer().min(1, "debe ser mayor que cero").max(MAX_PESOS, "es demasiado alto"),
  referencia: text(120),
});

/**
 * An administrator records money a driver paid in (the commissions of cash trips they owe): it
 * reaches the platform's bank and the driver's balance. Entries are never edited: a mistake is
 * corrected with an adjustment.
 */
export async function recordDeposit(deps: Deps, actor: Actor, input: Raw<typeof depositSchema>) {
  const admin = moneyActor(actor, MONEY_RULES.operate);
  const { conductor_id, monto, referencia } = parseInput(depositSchema, input);
  return correct(deps, actor, driverHolder(conductor_id), {
    tipo: "deposito",
    descripcion: `Depósito del conductor (referencia ${referencia})`,
    creado_por: admin.id,
    lines: [
      { account: driverAccount(conductor_id), concepto: "deposito", monto },
      { account: PLATFORM.bank, concepto: "deposito", monto: -monto },
    ],
    audit: { accion: "registrar_deposito", detalles: { monto, referencia } },
    mensaje: `Registramos tu depósito de ${formatPesos(monto)} (referencia ${referencia})`,
  });
}

const adjustmentSchema = z.object({
  conductor_id: optional(positiveId()),
  empresa_id: optional(positiveId()),
  monto: integer().min(-MAX_PESOS, "es demasiado bajo").max(MAX_PESOS, "es demasiado alto"),
  motivo: text(500),
});

/**
 * An administrator corrects a driver's or a company's balance up or down, saying why; the holder
 * adjusted is returned. A driver may end up owing the platform (the debt limit keeps them
 * offline then); a company never owes it, so an adjustment that would leave a company's balance
 * below zero is refused.
 */
export async function adjustBalance(deps: Deps, actor: Actor, input: Raw<typeof adjustmentSchema>): Promise<Holder> {
  const admin = moneyActor(actor, MONEY_RULES.operate);
  const { conductor_id, empresa_id, monto, motivo } = parseInput(adjustmentSchema, input);
  exactlyOne({ conductor_id, empresa_id });
  if (monto === 0) throw new ValidationError("no puede ser cero", "monto");
  const holder = conductor_id !== undefined ? driverHolder(conductor_id) : companyHolder(empresa_id!);
  const company = holder.empresa_id !== null;
  try {
    await correct(deps, actor, holder, {
      tipo: "ajuste",
      descripcion: motivo,
      creado_por: admin.id,
      lines: [
        // Only a debit can take a balance down, and only a company's has a floor.
        { account: holderAccount(holder), concepto: "ajuste", monto, floor: company && monto < 0 ? 0 : undefined },
        { account: PLATFORM.adjustments, concepto: "ajuste", monto: -monto },
      ],
      audit: { accion: company ? "ajustar_saldo_empresa" : "ajustar_saldo", detalles: { monto, motivo } },
      mensaje: `${company ? "El saldo de tu empresa" : "Tu saldo"} se ajustó en ${formatPesos(monto)}: ${motivo}`,
    });
  } catch (error) {
    if (error instanceof BelowFloor) {
      throw new ValidationError("dejaría el saldo de la empresa por debajo de cero, y una empresa no le debe a la plataforma", "monto");
    }
    throw error;
  }
  return holder;
}

/** Posts a correction to a driver's or a company's balance, audited, and tells the driver or the company's managers. */
async function correct(
  deps: Deps,
  actor: Actor,
  holder: Holder,
  correction: {
    tipo: "deposito" | "ajuste";
    descripcion: string;
    creado_por: number;
    lines: Line[];
    audit: { accion: "registrar_deposito" | "ajustar_saldo" | "ajustar_saldo_empresa"; detalles: Record<string, unknown> };
    mensaje: string;
  },
) {
  if (holder.conductor_id !== null) await loadDriver(deps.db, holder.conductor_id);
  else await getCompany(deps, holder.empresa_id);
  const now = deps.clock.now();
  const { entry, notifications } = await deps.db.$transaction(async (tx) => {
    // Each correction is its own entry; a retried request is kept from posting twice by its Idempotency-Key.
    const { tipo, descripcion, creado_por, lines } = correction;
    const entry = await post(tx, now, { clave: `${tipo}:${randomUUID()}`, tipo, descripcion, creado_por, lines });
    await audit(tx, deps, actor, { ...correction.audit, ...auditTarget(holder) });
    const titulo = correction.tipo === "deposito" ? "Depósito registrado" : "Saldo ajustado";
    const notifications = await notifyHolder(tx, holder, { tipo: "saldo", titulo, mensaje: correction.mensaje });
    return { entry, notifications };
  });
  for (const notification of notifications) announce(deps, notification);
  if (holder.conductor_id !== null) announceBalance(deps, holder.conductor_id);
  return entry;
}
