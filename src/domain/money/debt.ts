import type { Db, Tx } from "../../db/client.js";
import type { Deps } from "../deps.js";
import { DebtLimitError } from "../errors.js";
import { balanceOf } from "./ledger.js";
import { formatPesos } from "../pesos.js";

/** Why a driver may not go online for what they owe the platform; null when they may. */
export async function debtBlock(deps: Pick<Deps, "money">, db: Db | Tx, conductorId: number): Promise<string | null> {
  const saldo = await balanceOf(db, conductorId);
  if (saldo >= -deps.money.maxDebt) return null;
  return (
    `Debes ${formatPesos(-saldo)} a la plataforma por comisiones de viajes en efectivo, más que el límite de ` +
    `${formatPesos(deps.money.maxDebt)}; paga la deuda para volver a conectarte`
  );
}

/** Throws when a driver owes the platform more than the limit. */
export async function assertWithinDebtLimit(deps: Pick<Deps, "money">, db: Db | Tx, conductorId: number): Promise<void> {
  const blocked = await debtBlock(deps, db, conductorId);
  if (blocked) throw new DebtLimitError(blocked);
}
