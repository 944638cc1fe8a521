import type { Actor } from "../../domain/actor.js";
import {
  type CompanyBalance,
  companyBalance,
  companyMovements,
  type DriverBalance,
  driverBalance,
  driverMovements,
  holderBalance,
  MOVEMENT_SORTING,
  type Movement,
} from "../../domain/money/balance.js";
import { adjustBalance, recordDeposit } from "../../domain/money/corrections.js";
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
import { moneySubject } from "../../domain/money/access.js";
import { settlementReport, type SettlementReport } from "../../domain/money/settlement.js";
import { ENTRY_SORTING, type ENTRY_TYPES, ledgerEntries, type LedgerEntryView } from "../../domain/money/entries.js";
import type { Concept } from "../../domain/money/ledger.js";
import { ConflictError, InvalidStateError } from "../../domain/errors.js";
import { builder } from "../builder.js";
import { LOOKUP, RESTRICTED } from "../errors.js";
import { describedEnum } from "./enums.js";
import { pageArgs, pageType, sortArgs } from "./lists.js";

type EntryType = (typeof ENTRY_TYPES)[number];
type AccountKind = (typeof PAYOUT_ACCOUNT_KINDS)[number];
type BankAccountType = (typeof BANK_ACCOUNT_TYPES)[number];
type HolderDocumentType = (typeof HOLDER_DOCUMENT_TYPES)[number];

const EntryTypeEnum = describedEnum("TipoAsiento", "Lo que registra un asiento del libro", {
  viaje: "Un viaje completado: tarifa, comisiones y ganancia",
  retiro: "Un retiro: su reserva, su pago, o su devolución al saldo",
  deposito: "Dinero que un conductor pagó a la plataforma",
  ajuste: "Una corrección de un administrador",
} satisfies Record<EntryType, string>);

const ConceptEnum = describedEnum("ConceptoLinea", "Para qué es una línea del libro", {
  ganancia: "Lo que gana el conductor con un viaje",
  efectivo_cobrado: "La tarifa que el conductor cobró en efectivo",
  comision: "La comisión de la plataforma sobre un viaje",
  comision_metodo: "La comisión sobre un viaje que cobró la plataforma",
  comision_empresa: "La parte de la comisión de un viaje que le toca a la empresa del conductor",
  recaudo: "La tarifa que cobró la plataforma (billetera digital, tarjeta)",
  retiro: "Un retiro del saldo del conductor",
  deposito: "Un depósito del conductor",
  ajuste: "Una corrección de un administrador",
} satisfies Record<Concept, string>);

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

/** The smallest payout, as the platform runs it (PAYOUT_MIN_COP): the same for drivers and companies. */
const payoutMinimum = { description: "El monto mínimo de un retiro, en pesos enteros, como lo tiene configurado la plataforma" };

const DriverBalanceRef = builder.objectRef<DriverBalance>("SaldoConductor").implement({
  description: "El dinero de un conductor en el libro de la plataforma, en pesos enteros",
  fields: (t) => ({
    conductor_id: t.exposeInt("conductor_id", { description: "El conductor" }),
    saldo: t.exposeInt("saldo", {
      description:
        "Sus ganancias netas menos lo que cobró en efectivo, los retiros abiertos y pagados, más depósitos y ajustes: " +
        "positivo, lo que la plataforma le debe; negativo, lo que él le debe",
    }),
    disponible: t.exposeInt("disponible", { description: "Lo que puede retirar: el saldo si es positivo, o 0" }),
    deuda: t.exposeInt("deuda", { description: "Lo que debe a la plataforma (comisiones de viajes en efectivo), o 0" }),
    en_retiro: t.exposeInt("en_retiro", { description: "Reservado para retiros solicitados o aprobados, aún sin pagar" }),
    total_retirado: t.exposeInt("total_retirado", { description: "Lo que se le ha pagado en retiros" }),
    retiro_minimo: t.exposeInt("retiro_minimo", payoutMinimum),
  }),
});

const CompanyBalanceRef = builder.objectRef<CompanyBalance>("SaldoEmpresa").implement({
  description: "El dinero de una empresa en el libro de la plataforma, en pesos enteros",
  fields: (t) => ({
    empresa_id: t.exposeInt("empresa_id", { description: "La empresa" }),
    saldo: t.exposeInt("saldo", {
      description: "Su parte de las comisiones de los viajes de sus conductores, menos sus retiros, más los ajustes de los administradores",
    }),
    disponible: t.exposeInt("disponible", { description: "Lo que puede retirar: el saldo si es positivo, o 0" }),
    en_retiro: t.exposeInt("en_retiro", { description: "Reservado para retiros solicitados o aprobados, aún sin pagar" }),
    total_retirado: t.exposeInt("total_retirado", { description: "Lo que se le ha pagado en retiros" }),
    retiro_minimo: t.exposeInt("retiro_minimo", payoutMinimum),
  }),
});

const MovementRef = builder.objectRef<Movement>("Movimiento").implement({
  description: "Una línea del libro en la cuenta de un conductor o de una empresa",
  fields: (t) => ({
    id: t.exposeInt("id", { description: "La línea" }),
    fecha: t.expose("fecha", { type: "DateTime", description: "Cuándo se registró" }),
    tipo: t.field({ type: EntryTypeEnum, description: "Lo que registra su asiento", resolve: (line) => line.tipo as EntryType }),
    concepto: t.field({ type: ConceptEnum, description: "Para qué es la línea", resolve: (line) => line.concepto as Concept }),
    monto: t.exposeInt("monto", { description: "COP: positivo a su favor, negativo en su contra" }),
    descripcion: t.exposeString("descripcion", { description: "El asiento en palabras" }),
    viaje_id: t.exposeInt("viaje_id", { nullable: true, description: "El viaje, si lo hay" }),
  }),
});

const MovementPage = pageType("PaginaMovimientos", MovementRef, "Una página de los movimientos de un conductor");

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

const CompanySettlementRef = builder.objectRef<SettlementReport["empresas"][number]>("ConciliacionEmpresa").implement({
  description: "El dinero de una empresa en una conciliación, en pesos enteros",
  fields: (t) => ({
    empresa_id: t.exposeInt("empresa_id", { description: "La empresa" }),
    nombre: t.exposeString("nombre", { description: "Su nombre" }),
    participacion: t.exposeInt("participacion", { description: "Su parte de las comisiones de los viajes del rango" }),
    pagado: t.exposeInt("pagado", { description: "Retiros que se le pagaron en el rango" }),
    saldo: t.exposeInt("saldo", { description: "Lo que la plataforma le debe hoy" }),
  }),
});

const SettlementRef = builder.objectRef<SettlementReport>("ConciliacionDinero").implement({
  description: "El dinero de un rango de días (hora de Bogotá) según el libro, en pesos enteros",
  fields: (t) => ({
    desde: t.expose("desde", { type: "DateTime", description: "Primer instante del rango" }),
    hasta: t.expose("hasta", { type: "DateTime", description: "Último instante del rango" }),
    viajes_completados: t.exposeInt("viajes_completados", { description: "Viajes completados en el rango" }),
    bruto: t.exposeInt("bruto", { description: "Tarifas de esos viajes" }),
    cobrado_efectivo: t.exposeInt("cobrado_efectivo", { description: "De ellas, las que cobraron los conductores en efectivo" }),
    cobrado_plataforma: t.exposeInt("cobrado_plataforma", { description: "Las que cobró la plataforma (billetera digital, tarjeta)" }),
    comision: t.exposeInt("comision", { description: "Comisiones de la plataforma en total" }),
    comision_plataforma: t.exposeInt("comision_plataforma", { description: "Comisión sobre cada viaje" }),
    comision_metodo_pago: t.exposeInt("comision_metodo_pago", { description: "Comisión sobre los viajes que cobró la plataforma" }),
    neto: t.exposeInt("neto", { description: "Lo que ganaron los conductores" }),
    participacion_empresas: t.exposeInt("participacion_empresas", {
      description: "De la comisión sobre cada viaje, la parte que les toca a las empresas de los conductores",
    }),
    pagado_a_conductores: t.exposeInt("pagado_a_conductores", { description: "Retiros de conductores pagados en el rango" }),
    empresas: t.field({
      type: [CompanySettlementRef],
      description: "Una línea por empresa con dinero en el libro",
      resolve: (report) => report.empresas,
    }),
    deuda_de_conductores: t.exposeInt("deuda_de_conductores", { description: "Lo que los conductores deben hoy a la plataforma" }),
    saldo_de_conductores: t.exposeInt("saldo_de_conductores", { description: "Lo que la plataforma debe hoy a los conductores" }),
    cuadra: t.exposeBoolean("cuadra", {
      description: "Si cada asiento y el libro entero suman cero y cada saldo es la suma de sus líneas",
    }),
    problemas: t.exposeStringList("problemas", { description: "Lo que no cuadra, en palabras; vacío si todo cuadra" }),
  }),
});

const LedgerLineRef = builder.objectRef<LedgerEntryView["movimientos"][number]>("LineaAsiento").implement({
  description: "Una línea de un asiento: la cuenta que mueve y cuánto",
  fields: (t) => ({
    cuenta: t.exposeString("cuenta", { description: "conductor:<id>, plataforma:comisiones, recaudo:<método>, …" }),
    concepto: t.field({ type: ConceptEnum, description: "Para qué es la línea", resolve: (line) => line.concepto as Concept }),
    monto: t.exposeInt("monto", { description: "COP: positivo abona la cuenta, negativo la carga" }),
  }),
});

const LedgerEntryRef = builder.objectRef<LedgerEntryView>("Asiento").implement({
  description: "Un asiento del libro: sus líneas suman cero, y nunca cambia",
  fields: (t) => ({
    id: t.exposeInt("id", { description: "El asiento" }),
    clave: t.exposeString("clave", { description: "Lo que registra, una sola vez (viaje:41, retiro:5:pagado, …)" }),
    tipo: t.field({ type: EntryTypeEnum, description: "Lo que registra", resolve: (entry) => entry.tipo as EntryType }),
    descripcion: t.exposeString("descripcion", { description: "En palabras" }),
    viaje_id: t.exposeInt("viaje_id", { nullable: true, description: "El viaje, si lo hay" }),
    creado_por: t.exposeInt("creado_por", { nullable: true, description: "Quien lo causó (conductor o administrador), si lo hay" }),
    creado_en: t.expose("creado_en", { type: "DateTime", description: "Cuándo se registró" }),
    movimientos: t.field({ type: [LedgerLineRef], description: "Sus líneas", resolve: (entry) => entry.movimientos }),
  }),
});

const LedgerPage = pageType("PaginaAsientos", LedgerEntryRef, "Una página de asientos del libro");

const aboutDriver = { description: "Otro conductor (solo administradores); por defecto quien llama" };
const aboutCompany = { description: "La empresa (administradores; un gestor ve la suya)" };
const movementSorts = sortArgs("OrdenMovimientos", "Por qué se ordenan los movimientos de un saldo", MOVEMENT_SORTING, {
  id: "El número de la línea, que crece con el tiempo",
  fecha: "Cuándo se registró",
  monto: "Su monto",
});

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
  driverBalance: t.field({
    type: DriverBalanceRef,
    description: "El saldo de quien llama (conductor), o de otro conductor para un administrador; requiere sesión (Bearer)",
    errors: { types: [...RESTRICTED, ...LOOKUP] },
    args: { conductor_id: t.arg.int(aboutDriver) },
    resolve: (_root, args, ctx) => driverBalance(ctx.deps, ctx.actor, args.conductor_id),
  }),
  driverMovements: t.field({
    type: MovementPage,
    description:
      "Los movimientos del saldo de quien llama (conductor), o de otro conductor para un administrador, los más recientes primero; requiere sesión (Bearer)",
    errors: { types: [...RESTRICTED, ...LOOKUP] },
    args: { ...pageArgs, conductor_id: t.arg.int(aboutDriver), ...movementSorts },
    resolve: (_root, args, ctx) => driverMovements(ctx.deps, ctx.actor, args),
  }),
  companyBalance: t.field({
    type: CompanyBalanceRef,
    description: "El saldo de la empresa de quien llama (gestor), o de la que un administrador indica; requiere sesión (Bearer)",
    errors: { types: [...RESTRICTED, ...LOOKUP] },
    args: { empresa_id: t.arg.int(aboutCompany) },
    resolve: (_root, args, ctx) => companyBalance(ctx.deps, ctx.actor, args.empresa_id),
  }),
  companyMovements: t.field({
    type: MovementPage,
    description:
      "Los movimientos del saldo de la empresa de quien llama (gestor), o de la que un administrador indica, los más recientes primero; requiere sesión (Bearer)",
    errors: { types: [...RESTRICTED, ...LOOKUP] },
    args: { ...pageArgs, empresa_id: t.arg.int(aboutCompany), ...movementSorts },
    resolve: (_root, args, ctx) => companyMovements(ctx.deps, ctx.actor, args),
  }),
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
  ledgerEntries: t.field({
    type: LedgerPage,
    description: "Los asientos del libro con sus líneas, los más recientes primero (administradores)",
    errors: { types: [...RESTRICTED, ...LOOKUP] },
    args: {
      ...pageArgs,
      tipo: t.arg({ type: EntryTypeEnum, description: "Solo los que registran esto" }),
      conductor_id: t.arg.int({ description: "Los que mueven el saldo de este conductor" }),
      desde: t.arg.string({ description: "Primer día (AAAA-MM-DD, Bogotá)" }),
      hasta: t.arg.string({ description: "Último día (AAAA-MM-DD, Bogotá), incluido" }),
      ...sortArgs("OrdenAsientos", "Por qué se ordena el libro", ENTRY_SORTING, {
        id: "Su número, que crece con el tiempo",
        creado_en: "Cuándo se registró",
        tipo: "Lo que registra",
      }),
    },
    resolve: (_root, args, ctx) => ledgerEntries(ctx.deps, ctx.actor, args),
  }),
  settlementReport: t.field({
    type: SettlementRef,
    description:
      "La conciliación del dinero de un rango de días: viajes, comisiones, retiros, saldos y si el libro cuadra (administradores)",
    errors: { types: [...RESTRICTED, ...LOOKUP] },
    args: {
      desde: t.arg.string({ required: true, description: "Primer día (AAAA-MM-DD)" }),
      hasta: t.arg.string({ required: true, description: "Último día (AAAA-MM-DD), incluido" }),
    },
    resolve: (_root, args, ctx) => settlementReport(ctx.deps, ctx.actor, args),
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
  // Drivers only: a company never owes the platform cash commissions (the platform collects them
  // from its drivers), so there is nothing for a company to pay in; adjustBalance corrects either.
  recordDeposit: t.field({
    type: DriverBalanceRef,
    description: "Un administrador registra dinero que el conductor pagó (comisiones de viajes en efectivo que debía); auditado",
    errors: { types: [...RESTRICTED, ...LOOKUP] },
    args: {
      conductor_id: t.arg.int({ required: true, description: "El conductor" }),
      monto: t.arg.int({ required: true, description: "COP, mayor que cero" }),
      referencia: t.arg.string({ required: true, description: "La referencia del depósito" }),
    },
    resolve: async (_root, args, ctx) => {
      await recordDeposit(ctx.deps, ctx.actor, args);
      return driverBalance(ctx.deps, ctx.actor, args.conductor_id);
    },
  }),
  adjustBalance: t.errorUnionField({
    types: [DriverBalanceRef, CompanyBalanceRef, ...RESTRICTED, ...LOOKUP],
    union: { resolveType: (balance) => ("conductor_id" in balance ? DriverBalanceRef : CompanyBalanceRef) },
    description:
      "Un administrador corrige el saldo de un conductor o de una empresa (uno de los dos), en más o en menos, diciendo por qué; " +
      "el de una empresa no puede quedar por debajo de cero; auditado",
    args: {
      conductor_id: t.arg.int({ description: "El conductor" }),
      empresa_id: t.arg.int({ description: "La empresa" }),
      monto: t.arg.int({ required: true, description: "COP: positivo a su favor, negativo en su contra" }),
      motivo: t.arg.string({ required: true, description: "Por qué" }),
    },
    resolve: async (_root, args, ctx) => holderBalance(ctx.deps, ctx.actor, await adjustBalance(ctx.deps, ctx.actor, args)),
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
  driverBalanceChanged: t.field({
    type: DriverBalanceRef,
    description: "El saldo de quien se conecta (conductor), o de un conductor para un administrador, cada vez que se mueve",
    args: { conductor_id: t.arg.int(aboutDriver) },
    subscribe: (_root, args, ctx) => ctx.pubsub.subscribe("saldo", moneySubject(ctx.actor, args.conductor_id)),
    resolve: (event, _args, ctx) => driverBalance(ctx.deps, ctx.actor, event.conductor_id),
  }),
}));
