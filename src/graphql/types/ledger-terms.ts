import type { ENTRY_TYPES } from "../../domain/money/entries.js";
import type { Concept } from "../../domain/money/ledger.js";
import { describedEnum } from "./enums.js";

type EntryType = (typeof ENTRY_TYPES)[number];

/** What the ledger's entries and lines are for: read in a balance's movements and in the ledger itself. */
export const EntryTypeEnum = describedEnum("TipoAsiento", "Lo que registra un asiento del libro", {
  viaje: "Un viaje completado: tarifa, comisiones y ganancia",
  retiro: "Un retiro: su reserva, su pago, o su devolución al saldo",
  deposito: "Dinero que un conductor pagó a la plataforma",
  ajuste: "Una corrección de un administrador",
} satisfies Record<EntryType, string>);

export const ConceptEnum = describedEnum("ConceptoLinea", "Para qué es una línea del libro", {
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
