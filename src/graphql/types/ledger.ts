import { driverBalance, holderBalance } from "../../domain/money/balance.js";
import { adjustBalance, recordDeposit } from "../../domain/money/corrections.js";
import { settlementReport, type SettlementReport } from "../../domain/money/settlement.js";
import { ENTRY_SORTING, type ENTRY_TYPES, ledgerEntries, type LedgerEntryView } from "../../domain/money/entries.js";
import type { Concept } from "../../domain/money/ledger.js";
import { builder } from "../builder.js";
import { LOOKUP, RESTRICTED } from "../errors.js";
import { ConceptEnum, EntryTypeEnum } from "./ledger-terms.js";
import { pageArgs, pageType, sortArgs } from "./lists.js";
import { CompanyBalanceRef, DriverBalanceRef } from "./balances.js";

type EntryType = (typeof ENTRY_TYPES)[number];

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

builder.queryFields((t) => ({
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
}));

builder.mutationFields((t) => ({
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
