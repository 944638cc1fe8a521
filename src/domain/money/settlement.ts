import { z } from "zod";
import type { Db } from "../../db/client.js";
import type { Actor } from "../actor.js";
import type { Deps } from "../deps.js";
import { ValidationError } from "../errors.js";
import { type Span, within } from "../time.js";
import { isoDate, parseInput, type Raw } from "../validation.js";
import { MONEY_RULES, moneyActor } from "./access.js";
import { type Concept, ledgerProblems, PLATFORM } from "./ledger.js";

const postedWithin = (span: Span | null) => (span ? { creado_en: within(span) } : {});

/**
 * What the ledger says completed trips brought in a span (or ever): how many, gross fares and who
 * collected them, the commissions, and the drivers' net. Trips count when they were posted, which
 * is when they completed.
 */
export async function tripIncome(db: Db, span: Span | null) {
  const entries = { tipo: "viaje", ...postedWithin(span) };
  const [sums, viajes_completados] = await Promise.all([
    db.ledgerLine.groupBy({ by: ["concepto"], where: { asiento: entries }, _sum: { monto: true } }),
    db.ledgerEntry.count({ where: entries }),
  ]);
  const sum = (concepto: Concept) => sums.find((group) => group.concepto === concepto)?._sum.monto ?? 0;
  const cobrado_efectivo = -sum("efectivo_cobrado");
  const cobrado_plataforma = -sum("recaudo");
  return {
    viajes_completados,
    bruto: cobrado_efectivo + cobrado_plataforma,
    cobrado_efectivo,
    cobrado_plataforma,
    // The platform's commission includes the companies' shares of it.
    comision: sum("comision") + sum("comision_empresa") + sum("comision_metodo"),
    comision_plataforma: sum("comision") + sum("comision_empresa"),
    participacion_empresas: sum("comision_empresa"),
    comision_metodo_pago: sum("comision_metodo"),
    neto: sum("ganancia"),
  };
}

const rangeSchema = z.object({ desde: isoDate(), hasta: isoDate({ endOfDay: true }) });

/**
 * The money of a range of Bogotá days, for administrators: what trips brought, what was paid out
 * to drivers, what drivers owe the platform and it owes them now, and whether the ledger balances.
 */
export async function settlementReport(deps: Deps, actor: Actor, input: Raw<typeof rangeSchema>) {
  moneyActor(actor, MONEY_RULES.operate);
  const { desde, hasta } = parseInput(rangeSchema, input);
  if (desde > hasta) throw new ValidationError("debe ser posterior o igual a 'desde'", "hasta");
  const span = { start: desde, end: new Date(hasta.getTime() + 1) };
  const drivers = { conductor_id: { not: null } };
  const [viajes, paid, owing, owed, problemas, empresas] = await Promise.all([
    tripIncome(deps.db, span),
    deps.db.ledgerLine.aggregate({
      where: { concepto: "retiro", cuenta: { codigo: PLATFORM.bank.codigo }, asiento: postedWithin(span) },
      _sum: { monto: true },
    }),
    deps.db.ledgerAccount.aggregate({ where: { ...drivers, saldo: { lt: 0 } }, _sum: { saldo: true } }),
    deps.db.ledgerAccount.aggregate({ where: { ...drivers, saldo: { gt: 0 } }, _sum: { saldo: true } }),
    ledgerProblems(deps.db),
    companyLines(deps.db, span),
  ]);
  const paidToCompanies = empresas.reduce((total, line) => total + line.pagado, 0);
  return {
    desde,
    hasta,
    ...viajes,
    pagado_a_conductores: (paid._sum.monto ?? 0) - paidToCompanies,
    empresas,
    deuda_de_conductores: -(owing._sum.saldo ?? 0),
    saldo_de_conductores: owed._sum.saldo ?? 0,
    cuadra: problemas.length === 0,
    problemas,
  };
}

export type SettlementReport = Awaited<ReturnType<typeof settlementReport>>;

/**
 * Each company with money on record: its share of the commissions of trips posted in the span,
 * the payouts paid to it in the span, and what the platform owes it now.
 */
async function companyLines(db: Db, span: Span) {
  const [accounts, shares, payouts] = await Promise.all([
    db.ledgerAccount.findMany({ where: { empresa_id: { not: null } }, select: { id: true, empresa_id: true, saldo: true } }),
    db.ledgerLine.groupBy({
      by: ["cuenta_id"],
      where: { concepto: "comision_empresa", asiento: postedWithin(span) },
      _sum: { monto: true },
    }),
    db.payout.groupBy({
      by: ["empresa_id"],
      where: { empresa_id: { not: null }, estado: "pagado", cerrado_en: within(span) },
      _sum: { monto: true },
    }),
  ]);
  const names = await db.company.findMany({
    where: { id: { in: accounts.map((account) => account.empresa_id!) } },
    select: { id: true, nombre: true },
  });
  return accounts
    .map((account) => ({
      empresa_id: account.empresa_id!,
      nombre: names.find((company) => company.id === account.empresa_id)?.nombre ?? "",
      participacion: shares.find((share) => share.cuenta_id === account.id)?._sum.monto ?? 0,
      pagado: payouts.find((payout) => payout.empresa_id === account.empresa_id)?._sum.monto ?? 0,
      saldo: account.saldo,
    }))
    .sort((a, b) => a.nombre.localeCompare(b.nombre, "es"));
}
