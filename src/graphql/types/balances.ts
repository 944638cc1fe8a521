import {
  type CompanyBalance,
  companyBalance,
  companyMovements,
  type DriverBalance,
  driverBalance,
  driverMovements,
  MOVEMENT_SORTING,
  type Movement,
} from "../../domain/money/balance.js";
import { moneySubject } from "../../domain/money/access.js";
import type { ENTRY_TYPES } from "../../domain/money/entries.js";
import type { Concept } from "../../domain/money/ledger.js";
import { builder } from "../builder.js";
import { ConceptEnum, EntryTypeEnum } from "./ledger-terms.js";
import { LOOKUP, RESTRICTED } from "../errors.js";
import { pageArgs, pageType, sortArgs } from "./lists.js";

type EntryType = (typeof ENTRY_TYPES)[number];

/** The smallest payout, as the platform runs it (PAYOUT_MIN_COP): the same for drivers and companies. */
const payoutMinimum = { description: "El monto mínimo de un retiro, en pesos enteros, como lo tiene configurado la plataforma" };

export const DriverBalanceRef = builder.objectRef<DriverBalance>("SaldoConductor").implement({
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

export const CompanyBalanceRef = builder.objectRef<CompanyBalance>("SaldoEmpresa").implement({
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

export const aboutDriver = { description: "Otro conductor (solo administradores); por defecto quien llama" };
export const aboutCompany = { description: "La empresa (administradores; un gestor ve la suya)" };
const movementSorts = sortArgs("OrdenMovimientos", "Por qué se ordenan los movimientos de un saldo", MOVEMENT_SORTING, {
  id: "El número de la línea, que crece con el tiempo",
  fecha: "Cuándo se registró",
  monto: "Su monto",
});

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
}));

builder.subscriptionFields((t) => ({
  driverBalanceChanged: t.field({
    type: DriverBalanceRef,
    description: "El saldo de quien se conecta (conductor), o de un conductor para un administrador, cada vez que se mueve",
    args: { conductor_id: t.arg.int(aboutDriver) },
    subscribe: (_root, args, ctx) => ctx.pubsub.subscribe("saldo", moneySubject(ctx.actor, args.conductor_id)),
    resolve: (event, _args, ctx) => driverBalance(ctx.deps, ctx.actor, event.conductor_id),
  }),
}));
