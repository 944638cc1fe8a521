import type { Actor } from "../../domain/actor.js";
import { MONEY_RULES } from "../../domain/money/access.js";
import {
  addPayoutAccount,
  type BANK_ACCOUNT_TYPES,
  describeAccount,
  type HOLDER_DOCUMENT_TYPES,
  listPayoutAccounts,
  maskNumber,
  type PAYOUT_ACCOUNT_KINDS,
  removePayoutAccount,
  verifyPayoutAccount,
} from "../../domain/money/payout-accounts.js";
import type { PayoutState } from "../../domain/money/payout-states.js";
import {
  cancelPayout,
  listAllPayouts,
  listPayouts,
  type PAYOUT_ACTIONS,
  PAYOUT_SORTING,
  payoutFeed,
  requestPayout,
  reviewPayout,
} from "../../domain/money/payouts.js";
import { ConflictError, InvalidStateError } from "../../domain/errors.js";
import { builder } from "../builder.js";
import { LOOKUP, RESTRICTED } from "../errors.js";
import { describedEnum } from "./enums.js";
import { pageArgs, pageType, sortArgs } from "./lists.js";
import { aboutCompany, aboutDriver } from "./balances.js";

type AccountKind = (typeof PAYOUT_ACCOUNT_KINDS)[number];
type BankAccountType = (typeof BANK_ACCOUNT_TYPES)[number];
type HolderDocumentType = (typeof HOLDER_DOCUMENT_TYPES)[number];

const PayoutStateEnum = describedEnum("EstadoRetiro", "Dónde está un retiro", {
  solicitado: "El conductor lo pidió; el monto está reservado",
  aprobado: "Un administrador lo aprobó; falta pagarlo",
  pagado: "Se transfirió",
  rechazado: "Un administrador lo rechazó; el monto volvió al saldo",
  cancelado: "El conductor lo canceló antes de la aprobación; el monto volvió al saldo",
  fallido: "El pago falló; el monto volvió al saldo",
} satisfies Record<PayoutState, string>);

const PayoutActionEnum = describedEnum("AccionRetiro", "Lo que un administrador hace con un retiro", {
  aprobar: "Aprobar uno solicitado",
  rechazar: "Rechazar uno solicitado, con motivo",
  pagar: "Marcar pagado uno aprobado, con la referencia de la transferencia",
  fallido: "Marcar fallido uno aprobado, con motivo",
} satisfies Record<(typeof PAYOUT_ACTIONS)[number], string>);

const AccountKindEnum = describedEnum("TipoCuentaRetiro", "Dónde cobra un conductor", {
  nequi: "Billetera Nequi (celular)",
  daviplata: "Billetera Daviplata (celular)",
  cuenta_bancaria: "Cuenta en un banco",
  efectivo: "En efectivo, en la oficina",
} satisfies Record<AccountKind, string>);

const BankAccountTypeEnum = describedEnum("TipoCuentaBancaria", "La clase de una cuenta bancaria", {
  ahorros: "Cuenta de ahorros",
  corriente: "Cuenta corriente",
} satisfies Record<BankAccountType, string>);

const HolderDocumentEnum = describedEnum("TipoDocumentoIdentidad", "La clase del documento de identidad de una persona o empresa", {
  CC: "Cédula de ciudadanía",
  CE: "Cédula de extranjería",
  NIT: "Número de identificación tributaria",
  PAS: "Pasaporte",
  PEP: "Permiso especial de permanencia",
} satisfies Record<HolderDocumentType, string>);

/** Whether the caller sees an account whole: its owner and administrators. */
const seesWhole = (actor: Actor, account: { conductor_id: number | null }) =>
  account.conductor_id === null ? MONEY_RULES.wholeCompanyAccount.allows(actor) : MONEY_RULES.read.allows(actor, account.conductor_id);

const PayoutAccountRef = builder.prismaObject("PayoutAccount", {
  name: "CuentaRetiro",
  description: "Dónde se le paga a un conductor",
  fields: (t) => ({
    id: t.exposeInt("id", { description: "La cuenta" }),
    conductor_id: t.exposeInt("conductor_id", { nullable: true, description: "Su conductor (vacío si es de una empresa)" }),
    empresa_id: t.exposeInt("empresa_id", { nullable: true, description: "Su empresa (vacío si es de un conductor)" }),
    tipo: t.field({ type: AccountKindEnum, description: "Dónde cobra", resolve: (account) => account.tipo as AccountKind }),
    numero: t.string({
      nullable: true,
      description: "Celular o número de cuenta; enmascarado (****1234) salvo para su dueño y los administradores",
      resolve: (account, _args, ctx) => (seesWhole(ctx.actor, account) ? account.numero : maskNumber(account.numero)),
    }),
    banco: t.exposeString("banco", { nullable: true, description: "Solo cuentas bancarias" }),
    tipo_cuenta: t.field({
      type: BankAccountTypeEnum,
      nullable: true,
      description: "Solo cuentas bancarias",
      resolve: (account) => account.tipo_cuenta as BankAccountType | null,
    }),
    titular_nombre: t.exposeString("titular_nombre", { nullable: true, description: "Titular de la cuenta bancaria" }),
    titular_tipo_documento: t.field({
      type: HolderDocumentEnum,
      nullable: true,
      description: "El documento del titular de la cuenta bancaria",
      resolve: (account) => account.titular_tipo_documento as HolderDocumentType | null,
    }),
    titular_documento: t.string({
      nullable: true,
      description: "Documento del titular; enmascarado salvo para su dueño y los administradores",
      resolve: (account, _args, ctx) => (seesWhole(ctx.actor, account) ? account.titular_documento : maskNumber(account.titular_documento)),
    }),
    descripcion: t.string({ description: "La cuenta en palabras, con el número enmascarado", resolve: describeAccount }),
    verificada: t.boolean({
      description: "Si un administrador la verificó: solo entonces recibe retiros",
      resolve: (a) => a.verificada_en !== null,
    }),
    creado_en: t.expose("creado_en", { type: "DateTime", description: "Cuándo se registró" }),
  }),
});

const PayoutRef = builder.prismaObject("Payout", {
  name: "Retiro",
  description: "Un retiro del saldo de un conductor: solicitado, aprobado y pagado; o rechazado, cancelado o fallido",
  fields: (t) => ({
    id: t.exposeInt("id", { description: "El retiro" }),
    conductor_id: t.exposeInt("conductor_id", { nullable: true, description: "Su conductor (vacío si es de una empresa)" }),
    empresa_id: t.exposeInt("empresa_id", { nullable: true, description: "Su empresa (vacío si es de un conductor)" }),
    monto: t.exposeInt("monto", { description: "COP" }),
    estado: t.field({ type: PayoutStateEnum, description: "Dónde está", resolve: (payout) => payout.estado as PayoutState }),
    motivo: t.exposeString("motivo", { nullable: true, description: "Por qué se rechazó o falló" }),
    referencia_pago: t.exposeString("referencia_pago", {
      nullable: true,
      description: "La referencia de la transferencia, una vez pagado",
    }),
    solicitado_en: t.expose("solicitado_en", { type: "DateTime", description: "Cuándo se pidió" }),
    aprobado_en: t.expose("aprobado_en", { type: "DateTime", nullable: true, description: "Cuándo se aprobó" }),
    cerrado_en: t.expose("cerrado_en", { type: "DateTime", nullable: true, description: "Cuándo se pagó, rechazó, canceló o falló" }),
    cuenta: t.relation("cuenta", { description: "A dónde va" }),
  }),
});

const PayoutPage = pageType("PaginaRetiros", PayoutRef, "Una página de retiros");

const payoutFilters = {
  ...builder.args((t) => ({ estado: t.field({ type: PayoutStateEnum, description: "Solo los de este estado; sin él, todos" }) })),
  ...sortArgs("OrdenRetiros", "Por qué se ordena la lista de retiros", PAYOUT_SORTING, {
    id: "Su número, que crece con el tiempo",
    solicitado_en: "Cuándo se pidió",
    monto: "Su monto",
    estado: "El nombre de su estado",
  }),
};

builder.queryFields((t) => ({
  payouts: t.field({
    type: PayoutPage,
    description:
      "Retiros: los de quien llama (conductor o gestor de empresa), o para un administrador los de todos (o de un conductor o una empresa); requiere sesión (Bearer)",
    errors: { types: [...RESTRICTED, ...LOOKUP] },
    args: { ...pageArgs, conductor_id: t.arg.int(aboutDriver), empresa_id: t.arg.int(aboutCompany), ...payoutFilters },
    resolve: (_root, args, ctx) => listPayouts(ctx.deps, ctx.actor, args),
  }),
  allPayouts: t.field({
    type: PayoutPage,
    description: "Los retiros de todos los conductores, o de uno, para revisarlos (solo administradores, con sesión: Bearer)",
    errors: { types: [...RESTRICTED, ...LOOKUP] },
    args: {
      ...pageArgs,
      conductor_id: t.arg.int({ description: "Solo los de este conductor" }),
      empresa_id: t.arg.int({ description: "Solo los de esta empresa" }),
      ...payoutFilters,
    },
    resolve: (_root, args, ctx) => listAllPayouts(ctx.deps, ctx.actor, args),
  }),
  payoutAccounts: t.field({
    type: [PayoutAccountRef],
    description:
      "Las cuentas de retiro en uso de quien llama (conductor o gestor de empresa), o de otro conductor o empresa para un administrador; requiere sesión (Bearer)",
    errors: { types: [...RESTRICTED, ...LOOKUP], dataField: { description: "Las cuentas" } },
    args: { conductor_id: t.arg.int(aboutDriver), empresa_id: t.arg.int(aboutCompany) },
    resolve: (_root, args, ctx) => listPayoutAccounts(ctx.deps, ctx.actor, args),
  }),
}));

const PayoutAccountInput = builder.inputType("CuentaRetiroInput", {
  description: "Dónde cobrar: nequi o daviplata (celular de 10 dígitos que empieza por 3), cuenta_bancaria o efectivo (en oficina)",
  fields: (t) => ({
    tipo: t.field({ type: AccountKindEnum, required: true, description: "Dónde cobrar" }),
    numero: t.string({ description: "El celular (nequi, daviplata) o el número de la cuenta bancaria" }),
    banco: t.string({ description: "Cuenta bancaria: el banco" }),
    tipo_cuenta: t.field({ type: BankAccountTypeEnum, description: "Cuenta bancaria: su clase" }),
    titular_nombre: t.string({ description: "Cuenta bancaria: el titular" }),
    titular_tipo_documento: t.field({ type: HolderDocumentEnum, description: "Cuenta bancaria: el documento del titular" }),
    titular_documento: t.string({ description: "Cuenta bancaria: el documento del titular" }),
  }),
});

const MONEY_MOVE = { types: [...RESTRICTED, ...LOOKUP, ConflictError, InvalidStateError] };

builder.mutationFields((t) => ({
  addPayoutAccount: t.field({
    type: PayoutAccountRef,
    description: "El conductor que llama registra dónde cobrar; un administrador la verifica antes de pagarle allí",
    errors: MONEY_MOVE,
    args: { input: t.arg({ type: PayoutAccountInput, required: true, description: "La cuenta" }) },
    resolve: (_root, { input }, ctx) => addPayoutAccount(ctx.deps, ctx.actor, input),
  }),
  removePayoutAccount: t.field({
    type: PayoutAccountRef,
    description: "El conductor deja de usar una cuenta de retiro (no si un retiro en curso va a ella)",
    errors: MONEY_MOVE,
    args: { cuenta_retiro_id: t.arg.int({ required: true, description: "La cuenta" }) },
    resolve: (_root, args, ctx) => removePayoutAccount(ctx.deps, ctx.actor, args.cuenta_retiro_id),
  }),
  verifyPayoutAccount: t.field({
    type: PayoutAccountRef,
    description: "Un administrador confirma que la cuenta es del conductor (auditado)",
    errors: MONEY_MOVE,
    args: { cuenta_retiro_id: t.arg.int({ required: true, description: "La cuenta" }) },
    resolve: (_root, args, ctx) => verifyPayoutAccount(ctx.deps, ctx.actor, args.cuenta_retiro_id),
  }),
  requestPayout: t.field({
    type: PayoutRef,
    description: "El conductor que llama pide que le paguen: el monto se reserva de su saldo en el acto",
    errors: MONEY_MOVE,
    args: {
      monto: t.arg.int({ required: true, description: "COP, entre el mínimo de retiro y el saldo disponible" }),
      cuenta_retiro_id: t.arg.int({ required: true, description: "Una cuenta suya verificada" }),
    },
    resolve: (_root, args, ctx) => requestPayout(ctx.deps, ctx.actor, args),
  }),
  cancelPayout: t.field({
    type: PayoutRef,
    description: "El conductor cancela un retiro aún no aprobado; el monto vuelve a su saldo",
    errors: MONEY_MOVE,
    args: { retiro_id: t.arg.int({ required: true, description: "El retiro" }) },
    resolve: (_root, args, ctx) => cancelPayout(ctx.deps, ctx.actor, args.retiro_id),
  }),
  reviewPayout: t.field({
    type: PayoutRef,
    description:
      "Un administrador aprueba o rechaza (con motivo) un retiro solicitado, y marca pagado (con referencia) o fallido " +
      "(con motivo) uno aprobado; rechazado o fallido, el monto vuelve al saldo (auditado)",
    errors: MONEY_MOVE,
    args: {
      accion: t.arg({ type: PayoutActionEnum, required: true, description: "Qué hacer" }),
      retiro_id: t.arg.int({ required: true, description: "El retiro" }),
      motivo: t.arg.string({ description: "Por qué se rechaza o falló" }),
      referencia_pago: t.arg.string({ description: "La referencia de la transferencia" }),
    },
    resolve: (_root, args, ctx) => reviewPayout(ctx.deps, ctx.actor, args),
  }),
}));

builder.subscriptionFields((t) => ({
  payoutUpdated: t.field({
    type: PayoutRef,
    description:
      "Cada cambio de los retiros de quien se conecta (conductor), o de un conductor para un administrador; sin conductor_id, " +
      "un administrador recibe los de todos",
    args: { conductor_id: t.arg.int({ description: "El conductor; un administrador sin él los sigue todos" }) },
    subscribe: (_root, args, ctx) => ctx.pubsub.subscribe("retiro", payoutFeed(ctx.actor, args.conductor_id)),
    resolve: (payout) => payout,
  }),
}));
