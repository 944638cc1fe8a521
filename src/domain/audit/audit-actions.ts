import type { Prisma } from "../../db/client.js";
import { containsIgnoringCase } from "../../db/search.js";
import type { Provider } from "../../db/url.js";
import { normalize } from "../maps/gazetteer.js";
import { searchedId } from "../paging.js";

export const AUDIT_ACTIONS = [
  "actualizar_usuario",
  "eliminar_usuario",
  "suspender_usuario",
  "activar_usuario",
  "aprobar_conductor",
  "rechazar_conductor",
  "actualizar_tarifa",
  "crear_empresa",
  "actualizar_empresa",
  "eliminar_empresa",
  "aprobar_empresa",
  "rechazar_empresa",
  "afiliar_conductor",
  "porcentaje_empresa",
  "actualizar_configuracion",
  "verificar_cuenta_retiro",
  "solicitar_retiro",
  "cancelar_retiro",
  "aprobar_retiro",
  "rechazar_retiro",
  "pagar_retiro",
  "retiro_fallido",
  "registrar_deposito",
  "ajustar_saldo",
  "ajustar_saldo_empresa",
  "cancelar_viaje",
  "cancelar_reserva",
  "enviar_sos",
  "atender_sos",
  "resolver_sos",
  "escalar_sos",
  "enlace_sos",
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const AUDIT_TARGETS = [
  "usuario",
  "conductor",
  "tarifa",
  "empresa",
  "configuracion",
  "retiro",
  "viaje",
  "reserva",
  "incidente_sos",
] as const;
export type AuditTarget = (typeof AUDIT_TARGETS)[number];

/** Each action of the audit log in words, as its entries' sentences begin (audit-descriptions.ts). */
export const AUDIT_ACTION_LABELS: Record<AuditAction, string> = {
  actualizar_usuario: "Actualizó los datos de un usuario",
  eliminar_usuario: "Eliminó la cuenta de un usuario",
  suspender_usuario: "Suspendió a un usuario",
  activar_usuario: "Reactivó la cuenta de un usuario",
  aprobar_conductor: "Aprobó a un conductor",
  rechazar_conductor: "Rechazó a un conductor",
  actualizar_tarifa: "Cambió la tarifa de un tipo de vehículo",
  crear_empresa: "Registró una empresa",
  actualizar_empresa: "Actualizó los datos de una empresa",
  eliminar_empresa: "Eliminó una empresa",
  aprobar_empresa: "Aprobó una empresa",
  rechazar_empresa: "Rechazó una empresa",
  afiliar_conductor: "Cambió la empresa de un conductor",
  porcentaje_empresa: "Cambió la parte de la comisión de una empresa",
  actualizar_configuracion: "Cambió un ajuste de la app",
  verificar_cuenta_retiro: "Verificó la cuenta de retiro de un conductor",
  solicitar_retiro: "Solicitó un retiro (el conductor)",
  cancelar_retiro: "Canceló un retiro (el conductor)",
  aprobar_retiro: "Aprobó un retiro",
  rechazar_retiro: "Rechazó un retiro",
  pagar_retiro: "Pagó un retiro",
  retiro_fallido: "Marcó fallido un retiro",
  registrar_deposito: "Registró un depósito de un conductor",
  ajustar_saldo: "Ajustó el saldo de un conductor",
  ajustar_saldo_empresa: "Ajustó el saldo de una empresa",
  cancelar_viaje: "Canceló un viaje",
  cancelar_reserva: "Canceló una reserva",
  enviar_sos: "Envió un SOS desde un viaje (el pasajero o el conductor)",
  atender_sos: "Atendió un SOS",
  resolver_sos: "Resolvió un SOS",
  escalar_sos: "Escaló un SOS que nadie atendió a tiempo (el servicio)",
  enlace_sos: "Hizo un nuevo enlace de seguimiento para un SOS",
};

/**
 * Entries that say `search`: in their action's words (case and accents aside), in their details
 * (the fields sent, the reason given), or naming it as their target's id.
 */
export function auditSearch(provider: Provider, search: string): Prisma.AuditEntryWhereInput {
  const wanted = normalize(search);
  const id = searchedId(search);
  const actions = Object.entries(AUDIT_ACTION_LABELS).flatMap(([action, label]) =>
    wanted && normalize(label).includes(wanted) ? [action] : [],
  );
  return {
    OR: [
      ...(actions.length > 0 ? [{ accion: { in: actions } }] : []),
      { detalles: containsIgnoringCase(provider, search) },
      // Digits are also the id of an entry's target, which its sentence names.
      ...(id === null ? [] : [{ objetivo_id: id }]),
    ],
  };
}
