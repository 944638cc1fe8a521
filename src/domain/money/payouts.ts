import { z } from "zod";
import { isUniqueViolation, type Prisma, type Tx } from "../../db/client.js";
import type { Payout } from "../../db/models.js";
import { member, type Actor } from "../actor.js";
import type { AuditAction } from "../audit/audit-actions.js";
import { audit } from "../audit/audit.js";
import { byColumn, orderOf, pageFields, pageOf, sortFields, type Sorting } from "../paging.js";
import type { Deps } from "../deps.js";
import { ConflictError, InvalidStateError, NotFoundError, ValidationError } from "../errors.js";
import { announce } from "../notifications/notifications.js";
import { holderAccount, holderOf, notifyHolder } from "./holders.js";
import { integer, oneOf, optional, parseInput, positiveId, text, type Raw } from "../validation.js";
import { callerHolder, MONEY_RULES, moneyActor, moneySubject, readHolder } from "./access.js";
import { announcePayout, EVERY_DRIVER } from "./announcements.js";
import { formatPesos } from "../pesos.js";
import { BelowFloor, PLATFORM, post, type Line } from "./ledger.js";
import { describeAccount, ownAccount } from "./payout-accounts.js";
import { OPEN_PAYOUT_STATES, PAYOUT_STATES, type PayoutState } from "./payout-states.js";

const requestSchema = z.object({ monto: integer(), cuenta_retiro_id: positiveId() });

/** The lines that move a payout's amount between the driver and the payouts the platform owes. */
const reserve = (payout: Payout, sign: 1 | -1, floor?: number): Line[] => [
  { account: holderAccount(holderOf(payout)), concepto: "retiro", monto: -sign * payout.monto, floor },
  { account: PLATFORM.payoutsDue, concepto: "retiro", monto: sign * payout.monto },
];

/** Runs a change of a payout in a transaction, then tells the driver what became of it. */
async function changePayout(deps: Deps, change: (tx: Tx) => Promise<{ payout: Payout; titulo: string; mensaje: string }>) {
  const { payout, notifications } = await deps.db.$transaction(async (tx) => {
    const { payout, titulo, mensaje } = await change(tx);
    return { payout, notifications: await notifyHolder(tx, holderOf(payout), { tipo: "retiro", titulo, mensaje }) };
  });
  for (const notification of notifications) announce(deps, notification);
  announcePayout(deps, payout);
  return payout;
}

/**
 * A driver asks to be paid part or all of their balance into one of their verified accounts. The
 * amount is reserved at once (it leaves their balance for the platform's payouts due), in the
 * transaction that records the request; a driver has at most one payout open.
 */
export async function requestPayout(deps: Deps, actor: Actor, input: Raw<typeof requestSchema>) {
  const holder = await callerHolder(deps, actor);
  const { monto, cuenta_retiro_id } = parseInput(requestSchema, input);
  const minimum = deps.money.payoutMinimum;
  if (monto < minimum) throw new ValidationError(`debe ser al menos ${formatPesos(minimum)}`, "monto");
  const account = await ownAccount(deps, holder, cuenta_retiro_id);
  if (!account.verificada_en) {
    throw new ValidationError("es de una cuenta que un administrador aún no ha verificado", "cuenta_retiro_id");
  }
  const now = deps.clock.now();
  try {
    return await changePayout(deps, async (tx) => {
      const open = await tx.payout.findFirst({ where: { ...holder, estado: { in: [...OPEN_PAYOUT_STATES] } } });
      if (open) throw new ConflictError(`Ya tienes un retiro en curso (id ${open.id}, ${open.estado})`);
      const payout = await tx.payout.create({ data: { ...holder, cuenta_retiro_id: account.id, monto, solicitado_en: now } });
      await post(tx, now, {
        clave: `retiro:${payout.id}:reserva`,
        tipo: "retiro",
        descripcion: `Retiro ${payout.id} solicitado`,
        creado_por: member(actor).id,
        lines: reserve(payout, 1, 0),
      });
      // The driver's own changes are audited with the administrators': whoever moves a payout is on record.
      await audit(tx, deps, actor, {
        accion: "solicitar_retiro",
        objetivo_tipo: "retiro",
        objetivo_id: payout.id,
        detalles: { monto, cuenta_retiro_id: account.id },
      });
      const mensaje = `Pediste ${formatPesos(monto)} a ${describeAccount(account)}; te avisaremos cuando se apruebe`;
      return { payout, titulo: "Retiro solicitado", mensaje };
    });
  } catch (error) {
    if (error instanceof BelowFloor) throw new ValidationError("pasa de tu saldo disponible", "monto");
    // The other of two requests at once: the partial unique indexes keep one open payout per driver or company.
    if (isUniqueViolation(error)) throw new ConflictError("Ya tienes un retiro en curso");
    throw error;
  }
}

/** What each action does: the state it needs, the one it leaves, what it must say, and what it posts. */
const ACTIONS = {
  aprobar: { from: "solicitado", to: "aprobado", audit: "aprobar_retiro", needs: null, releases: false },
  rechazar: { from: "solicitado", to: "rechazado", audit: "rechazar_retiro", needs: "motivo", releases: true },
  pagar: { from: "aprobado", to: "pagado", audit: "pagar_retiro", needs: "referencia_pago", releases: false },
  fallido: { from: "aprobado", to: "fallido", audit: "retiro_fallido", needs: "motivo", releases: true },
} as const satisfies Record<
  string,
  { from: PayoutState; to: PayoutState; audit: AuditAction; needs: "motivo" | "referencia_pago" | null; releases: boolean }
>;

/** What an administrator may do to a payout. */
export const PAYOUT_ACTIONS = Object.keys(ACTIONS) as [keyof typeof ACTIONS, ...Array<keyof typeof ACTIONS>];

const reviewSchema = z.object({
  accion: oneOf(PAYOUT_ACTIONS),
  retiro_id: positiveId(),
  motivo: optional(text(500)),
  referencia_pago: optional(text(120)),
});

const MESSAGES: Record<keyof typeof ACTIONS, (payout: Payout) => [string, string]> = {
  aprobar: (p) => ["Retiro aprobado", `Tu retiro de ${formatPesos(p.monto)} fue aprobado; pronto lo pagaremos`],
  rechazar: (p) => ["Retiro rechazado", `Tu retiro de ${formatPesos(p.monto)} fue rechazado: ${p.motivo}. El monto volvió a tu saldo`],
  pagar: (p) => ["Retiro pagado", `Pagamos tu retiro de ${formatPesos(p.monto)} (referencia ${p.referencia_pago})`],
  fallido: (p) => ["Retiro fallido", `El pago de tu retiro de ${formatPesos(p.monto)} falló: ${p.motivo}. El monto volvió a tu saldo`],
};

/** The lines an action posts: paying takes the amount from the bank, releasing gives it back to the driver. */
function linesFor(action: keyof typeof ACTIONS, payout: Payout): Line[] | null {
  if (action === "pagar") {
    return [
      { account: PLATFORM.payoutsDue, concepto: "retiro", monto: -payout.monto },
      { account: PLATFORM.bank, concepto: "retiro", monto: payout.monto },
    ];
  }
  return ACTIONS[action].releases ? reserve(payout, -1) : null;
}

/**
 * An administrator moves a payout on: approves or rejects a request, then records it paid (with
 * the transfer's reference) or failed. One conditional update decides, so an action done twice at
 * once applies once; what it posts is keyed by the payout, so it is posted once.
 */
export async function reviewPayout(deps: Deps, actor: Actor, input: Raw<typeof reviewSchema>) {
  moneyActor(actor, MONEY_RULES.operate);
  const { accion, retiro_id, motivo, referencia_pago } = parseInput(reviewSchema, input);
  const action = ACTIONS[accion];
  if (action.needs === "motivo" && !motivo) throw new ValidationError("es obligatorio para rechazar o marcar fallido un retiro", "motivo");
  if (action.needs === "referencia_pago" && !referencia_pago) {
    throw new ValidationError("es obligatorio para marcar un retiro pagado (la referencia de la transferencia)", "referencia_pago");
  }
  const now = deps.clock.now();
  return changePayout(deps, async (tx) => {
    const closing = action.to === "aprobado" ? { aprobado_en: now } : { cerrado_en: now };
    const { count } = await tx.payout.updateMany({
      where: { id: retiro_id, estado: action.from },
      data: { estado: action.to, ...closing, ...(motivo ? { motivo } : {}), ...(referencia_pago ? { referencia_pago } : {}) },
    });
    const payout = await tx.payout.findUnique({ where: { id: retiro_id } });
    if (!payout) throw new NotFoundError(`No existe un retiro con id ${retiro_id}`);
    if (count === 0)
      throw new InvalidStateError(`El retiro ${retiro_id} está ${payout.estado}; solo uno ${action.from} se puede ${accion}`);
    const lines = linesFor(accion, payout);
    if (lines)
      await post(tx, now, {
        clave: `retiro:${payout.id}:${action.to}`,
        tipo: "retiro",
        descripcion: `Retiro ${payout.id} ${action.to}`,
        lines,
      });
    await audit(tx, deps, actor, {
      accion: action.audit,
      objetivo_tipo: "retiro",
      objetivo_id: payout.id,
      detalles: { conductor_id: payout.conductor_id, monto: payout.monto, motivo, referencia_pago },
    });
    const [titulo, mensaje] = MESSAGES[accion](payout);
    return { payout, titulo, mensaje };
  });
}

/** Its holder withdraws a request not yet approved; the amount returns to their balance. */
export async function cancelPayout(deps: Deps, actor: Actor, id: unknown) {
  const holder = await callerHolder(deps, actor);
  const retiroId = parseInput(z.object({ retiro_id: positiveId() }), { retiro_id: id }).retiro_id;
  const now = deps.clock.now();
  return changePayout(deps, async (tx) => {
    const { count } = await tx.payout.updateMany({
      where: { id: retiroId, ...holder, estado: "solicitado" },
      data: { estado: "cancelado", cerrado_en: now },
    });
    const payout = await tx.payout.findFirst({ where: { id: retiroId, ...holder } });
    if (!payout) throw new NotFoundError(`No tienes un retiro con id ${retiroId}`);
    if (count === 0) throw new InvalidStateError(`El retiro ${retiroId} está ${payout.estado}; solo se cancela uno solicitado`);
    await audit(tx, deps, actor, {
      accion: "cancelar_retiro",
      objetivo_tipo: "retiro",
      objetivo_id: payout.id,
      detalles: { monto: payout.monto },
    });
    await post(tx, now, {
      clave: `retiro:${payout.id}:cancelado`,
      tipo: "retiro",
      descripcion: `Retiro ${payout.id} cancelado`,
      creado_por: member(actor).id,
      lines: reserve(payout, -1),
    });
    return {
      payout,
      titulo: "Retiro cancelado",
      mensaje: `Cancelaste tu retiro de ${formatPesos(payout.monto)}; el monto volvió a tu saldo`,
    };
  });
}

const PAYOUT_SORTS = ["id", "solicitado_en", "monto", "estado"] as const;

export const PAYOUT_SORTING: Sorting<(typeof PAYOUT_SORTS)[number], Prisma.PayoutOrderByWithRelationInput> = {
  columns: { id: byColumn("id"), solicitado_en: byColumn("solicitado_en"), monto: byColumn("monto"), estado: byColumn("estado") },
  sort: "id",
  order: "desc",
};

const listSchema = z.object({ estado: optional(oneOf(PAYOUT_STATES)), ...pageFields, ...sortFields(PAYOUT_SORTS) });

/**
 * Payouts newest first unless sorted otherwise: a driver's or a company's own, or, for an
 * administrator, anybody's (one driver's or company's when named).
 */
export async function listPayouts(
  deps: Deps,
  actor: Actor,
  input: Raw<typeof listSchema> & { conductor_id?: number | null; empresa_id?: number | null },
) {
  const { estado, sort, order, ...paging } = parseInput(listSchema, input);
  const everyone = input.conductor_id == null && input.empresa_id == null && isOperator(actor);
  const where = { ...(everyone ? {} : await readHolder(deps, actor, input)), ...(estado ? { estado } : {}) };
  const page = pageOf(paging);
  const orderBy = orderOf(PAYOUT_SORTING, { sort, order });
  const [items, total] = await Promise.all([
    deps.db.payout.findMany({ where, orderBy, skip: page.skip, take: page.take, include: { cuenta: true } }),
    deps.db.payout.count({ where }),
  ]);
  return { items, pagination: page.pagination(total) };
}

/** Every driver's payouts, or one driver's when named: the administrators' review list, for nobody else. */
export function listAllPayouts(deps: Deps, actor: Actor, input: Parameters<typeof listPayouts>[2]) {
  moneyActor(actor, MONEY_RULES.operate);
  return listPayouts(deps, actor, input);
}

const isOperator = (actor: Actor) => MONEY_RULES.operate.allows(actor, undefined);

/** Whose payouts a subscription follows: a driver's own (or one driver's for an administrator), or everybody's for an administrator. */
export const payoutFeed = (actor: Actor, conductorId?: number | null): number =>
  conductorId == null && isOperator(actor) ? EVERY_DRIVER : moneySubject(actor, conductorId);
