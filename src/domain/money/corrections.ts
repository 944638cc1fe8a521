import { randomUUID } from "node:crypto";
import { z } from "zod";
import type { Actor } from "../actor.js";
import { audit } from "../admin/audit.js";
import type { Deps } from "../deps.js";
import { ValidationError } from "../errors.js";
import { loadDriver } from "../drivers/readiness.js";
import { announce, createNotification } from "../notifications/notifications.js";
import { integer, parseInput, positiveId, text, type Raw } from "../validation.js";
import { MONEY_RULES, moneyActor } from "./access.js";
import { announceBalance } from "./announcements.js";
import { driverAccount, type Line, PLATFORM, post } from "./ledger.js";
import { formatPesos } from "./pesos.js";

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
  return correct(deps, actor, conductor_id, {
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
  conductor_id: positiveId(),
  monto: integer().min(-MAX_PESOS, "es demasiado bajo").max(MAX_PESOS, "es demasiado alto"),
  motivo: text(500),
});

/** An administrator corrects a driver's balance up or down, saying why. */
export async function adjustBalance(deps: Deps, actor: Actor, input: Raw<typeof adjustmentSchema>) {
  const admin = moneyActor(actor, MONEY_RULES.operate);
  const { conductor_id, monto, motivo } = parseInput(adjustmentSchema, input);
  if (monto === 0) throw new ValidationError("no puede ser cero", "monto");
  return correct(deps, actor, conductor_id, {
    tipo: "ajuste",
    descripcion: motivo,
    creado_por: admin.id,
    lines: [
      { account: driverAccount(conductor_id), concepto: "ajuste", monto },
      { account: PLATFORM.adjustments, concepto: "ajuste", monto: -monto },
    ],
    audit: { accion: "ajustar_saldo", detalles: { monto, motivo } },
    mensaje: `Tu saldo se ajustó en ${formatPesos(monto)}: ${motivo}`,
  });
}

/** Posts a correction to a driver's balance, audited, and tells the driver. */
async function correct(
  deps: Deps,
  actor: Actor,
  conductorId: number,
  correction: {
    tipo: "deposito" | "ajuste";
    descripcion: string;
    creado_por: number;
    lines: Line[];
    audit: { accion: "registrar_deposito" | "ajustar_saldo"; detalles: Record<string, unknown> };
    mensaje: string;
  },
) {
  await loadDriver(deps.db, conductorId);
  const now = deps.clock.now();
  const { entry, notification } = await deps.db.$transaction(async (tx) => {
    // Each correction is its own entry; a retried request is kept from posting twice by its Idempotency-Key.
    const { tipo, descripcion, creado_por, lines } = correction;
    const entry = await post(tx, now, { clave: `${tipo}:${randomUUID()}`, tipo, descripcion, creado_por, lines });
    await audit(tx, deps, actor, { ...correction.audit, objetivo_tipo: "conductor", objetivo_id: conductorId });
    const titulo = correction.tipo === "deposito" ? "Depósito registrado" : "Saldo ajustado";
    const notification = await createNotification(tx, conductorId, { tipo: "saldo", titulo, mensaje: correction.mensaje });
    return { entry, notification };
  });
  announce(deps, notification);
  announceBalance(deps, conductorId);
  return entry;
}
