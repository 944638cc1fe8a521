import { z } from "zod";
import type { Actor } from "../actor.js";
import { audit } from "../audit/audit.js";
import type { Deps } from "../deps.js";
import { ConflictError, NotFoundError, ValidationError } from "../errors.js";
import { announce } from "../notifications/notifications.js";
import { auditTarget, type Holder, holderOf, notifyHolder } from "./holders.js";
import { MOBILE, oneOf, optional, parseInput, positiveId, text, fieldParser, type Raw } from "../validation.js";
import { callerHolder, MONEY_RULES, moneyActor, readHolder } from "./access.js";
import { OPEN_PAYOUT_STATES } from "./payout-states.js";

export const PAYOUT_ACCOUNT_KINDS = ["nequi", "daviplata", "cuenta_bancaria", "efectivo"] as const;
export const HOLDER_DOCUMENT_TYPES = ["CC", "CE", "NIT", "PAS", "PEP"] as const;
export const BANK_ACCOUNT_TYPES = ["ahorros", "corriente"] as const;

const BANK_NUMBER = /^\d{6,20}$/;
const DOCUMENT = /^[A-Za-z0-9]{4,20}$/;

const accountSchema = z
  .object({
    tipo: oneOf(PAYOUT_ACCOUNT_KINDS),
    numero: optional(text(20)),
    banco: optional(text(80)),
    tipo_cuenta: optional(oneOf(BANK_ACCOUNT_TYPES)),
    titular_nombre: optional(text(120)),
    titular_tipo_documento: optional(oneOf(HOLDER_DOCUMENT_TYPES)),
    titular_documento: optional(text(20)),
  })
  .superRefine((account, context) => {
    const problem = (path: string, message: string) => context.addIssue({ code: "custom", path: [path], message });
    if (account.tipo === "nequi" || account.tipo === "daviplata") {
      if (!account.numero || !MOBILE.test(account.numero)) problem("numero", "debe ser un celular de 10 dígitos que empiece por 3");
    }
    if (account.tipo === "cuenta_bancaria") {
      if (!account.banco) problem("banco", "es obligatorio para una cuenta bancaria");
      else if (!account.tipo_cuenta) problem("tipo_cuenta", "es obligatorio para una cuenta bancaria: ahorros o corriente");
      else if (!account.numero || !BANK_NUMBER.test(account.numero)) problem("numero", "debe tener de 6 a 20 dígitos");
      else if (!account.titular_nombre) problem("titular_nombre", "es obligatorio para una cuenta bancaria");
      else if (!account.titular_tipo_documento) problem("titular_tipo_documento", "es obligatorio: CC, CE, NIT, PAS o PEP");
      else if (!account.titular_documento || !DOCUMENT.test(account.titular_documento)) {
        problem("titular_documento", "debe tener de 4 a 20 letras o dígitos");
      }
    }
  });

/** What each kind of account keeps: a mobile wallet its number, cash nothing more. */
function fieldsOf(account: z.output<typeof accountSchema>) {
  if (account.tipo === "cuenta_bancaria") return account;
  if (account.tipo === "efectivo") return { tipo: account.tipo };
  return { tipo: account.tipo, numero: account.numero };
}

/** "****1234": account numbers are shown whole only to their owner and administrators. */
export const maskNumber = (numero: string | null) => (numero === null ? null : `****${numero.slice(-4)}`);

/** A driver, or a company's manager, registers where to be paid; an administrator verifies it before any payout goes there. */
export async function addPayoutAccount(deps: Deps, actor: Actor, input: Raw<typeof accountSchema>) {
  const holder = await callerHolder(deps, actor);
  const account = parseInput(accountSchema, input);
  return deps.db.payoutAccount.create({ data: { ...holder, ...fieldsOf(account), creado_en: deps.clock.now() } });
}

/** A driver's or a company's payout accounts still in use, newest first. */
export async function listPayoutAccounts(deps: Deps, actor: Actor, named: { conductor_id?: number | null; empresa_id?: number | null }) {
  const holder = await readHolder(deps, actor, named);
  return deps.db.payoutAccount.findMany({ where: { ...holder, eliminada_en: null }, orderBy: { id: "desc" } });
}

const parseAccountId = fieldParser("cuenta_retiro_id", positiveId());

/** One of the holder's accounts in use; 404 for anybody else's. */
export async function ownAccount(deps: Deps, holder: Holder, id: unknown) {
  const accountId = parseAccountId(id);
  const account = await deps.db.payoutAccount.findFirst({ where: { id: accountId, ...holder, eliminada_en: null } });
  if (!account) throw new NotFoundError(`No tienes una cuenta de retiro con id ${accountId}`);
  return account;
}

/** Its holder stops using an account; it stays on record for the payouts that went to it. */
export async function removePayoutAccount(deps: Deps, actor: Actor, id: unknown) {
  const account = await ownAccount(deps, await callerHolder(deps, actor), id);
  const open = await deps.db.payout.findFirst({ where: { cuenta_retiro_id: account.id, estado: { in: [...OPEN_PAYOUT_STATES] } } });
  if (open) throw new ConflictError(`El retiro ${open.id} en curso va a esta cuenta; espera a que termine o cancélalo`);
  return deps.db.payoutAccount.update({ where: { id: account.id }, data: { eliminada_en: deps.clock.now() } });
}

/** An administrator confirms an account is the driver's; payouts may then go to it. */
export async function verifyPayoutAccount(deps: Deps, actor: Actor, id: unknown) {
  moneyActor(actor, MONEY_RULES.operate);
  const accountId = parseAccountId(id);
  const account = await deps.db.payoutAccount.findFirst({ where: { id: accountId, eliminada_en: null } });
  if (!account) throw new NotFoundError(`No existe una cuenta de retiro con id ${accountId}`);
  if (account.verificada_en) throw new ValidationError(`La cuenta de retiro ${accountId} ya está verificada`);
  const holder = holderOf(account);
  const { verified, notifications } = await deps.db.$transaction(async (tx) => {
    await audit(tx, deps, actor, {
      accion: "verificar_cuenta_retiro",
      ...auditTarget(holder),
      detalles: { cuenta_retiro_id: account.id, tipo: account.tipo },
    });
    const verified = await tx.payoutAccount.update({ where: { id: account.id }, data: { verificada_en: deps.clock.now() } });
    const notifications = await notifyHolder(tx, holder, {
      tipo: "cuenta_retiro",
      titulo: "Cuenta de retiro verificada",
      mensaje: `Tu cuenta ${describeAccount(verified)} ya puede recibir retiros`,
    });
    return { verified, notifications };
  });
  for (const notification of notifications) announce(deps, notification);
  return verified;
}

/** An account in words, its number masked: "Nequi ****4567", "Bancolombia ahorros ****9876", "efectivo en oficina". */
export function describeAccount(account: { tipo: string; numero: string | null; banco: string | null; tipo_cuenta: string | null }) {
  if (account.tipo === "efectivo") return "efectivo en oficina";
  if (account.tipo === "cuenta_bancaria") return `${account.banco} ${account.tipo_cuenta} ${maskNumber(account.numero)}`;
  return `${account.tipo === "nequi" ? "Nequi" : "Daviplata"} ${maskNumber(account.numero)}`;
}
