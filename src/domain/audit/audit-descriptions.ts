import { formatPesos } from "../pesos.js";
import type { AuditAction } from "./audit-actions.js";

type Details = Record<string, unknown>;

/** What was sent, as "campo valor, …", for the entries that record changed fields. */
const listed = (details: Details, leaving: string[] = []) =>
  Object.entries(details)
    .filter(([name, value]) => value !== undefined && !leaving.includes(name))
    .map(([name, value]) => `${name} ${typeof value === "string" ? value : JSON.stringify(value)}`)
    .join(", ");

const withReason = (sentence: string, details: Details) =>
  typeof details.motivo === "string" ? `${sentence}: ${details.motivo}` : sentence;
const pesos = (value: unknown) => (typeof value === "number" ? formatPesos(value) : String(value));
const withChanges = (sentence: string, changes: string) => (changes ? `${sentence}: ${changes}` : sentence);

/** One sentence per action, from the target's id and the entry's details. */
const SENTENCES: Record<AuditAction, (id: number, details: Details) => string> = {
  actualizar_usuario: (id, d) => withChanges(`Actualizó al usuario ${id}`, listed(d)),
  eliminar_usuario: (id) => `Eliminó la cuenta del usuario ${id}`,
  suspender_usuario: (id, d) => withReason(`Suspendió al usuario ${id}`, d),
  activar_usuario: (id) => `Reactivó la cuenta del usuario ${id}`,
  aprobar_conductor: (id) => `Aprobó al conductor ${id}`,
  rechazar_conductor: (id, d) => withReason(`Rechazó al conductor ${id}`, d),
  actualizar_tarifa: (id, d) => withChanges(`Cambió la tarifa de ${d.tipo_vehiculo ?? id}`, listed(d, ["tipo_vehiculo"])),
  crear_empresa: (id, d) => `Registró la empresa ${d.nombre ?? id}`,
  actualizar_empresa: (id, d) => withChanges(`Actualizó la empresa ${id}`, listed(d)),
  eliminar_empresa: (id, d) => `Eliminó la empresa ${d.nombre ?? id}`,
  aprobar_empresa: (id, d) => `Aprobó la empresa ${d.nombre ?? id}`,
  rechazar_empresa: (id, d) => withReason(`Rechazó la empresa ${id}`, d),
  porcentaje_empresa: (id, d) => `Fijó en ${d.porcentaje} % la parte de la comisión de la empresa ${id} (antes ${d.antes} %)`,
  afiliar_conductor: (id, d) =>
    d.empresa_id === null ? `Quitó al conductor ${id} de su empresa` : `Afilió al conductor ${id} a la empresa ${d.empresa_id}`,
  verificar_cuenta_retiro: (id, d) => `Verificó la cuenta de retiro ${d.cuenta_retiro_id} del conductor ${id}`,
  solicitar_retiro: (id, d) => `Solicitó el retiro ${id} de ${pesos(d.monto)}`,
  cancelar_retiro: (id, d) => `Canceló el retiro ${id} de ${pesos(d.monto)}`,
  aprobar_retiro: (id, d) => `Aprobó el retiro ${id} de ${pesos(d.monto)}`,
  rechazar_retiro: (id, d) => withReason(`Rechazó el retiro ${id} de ${pesos(d.monto)}`, d),
  pagar_retiro: (id, d) => `Pagó el retiro ${id} de ${pesos(d.monto)} (referencia ${d.referencia_pago})`,
  retiro_fallido: (id, d) => withReason(`Marcó fallido el retiro ${id} de ${pesos(d.monto)}`, d),
  registrar_deposito: (id, d) => `Registró un depósito de ${pesos(d.monto)} del conductor ${id} (referencia ${d.referencia})`,
  ajustar_saldo: (id, d) => withReason(`Ajustó en ${pesos(d.monto)} el saldo del conductor ${id}`, d),
  ajustar_saldo_empresa: (id, d) => withReason(`Ajustó en ${pesos(d.monto)} el saldo de la empresa ${id}`, d),
  cancelar_viaje: (id, d) => withReason(`Canceló el viaje ${id}${d.estado ? ` (${d.estado})` : ""}`, d),
  cancelar_reserva: (id, d) => withReason(`Canceló la reserva ${id}`, d),
  enviar_sos: (id, d) => `Envió el SOS ${id} desde el viaje ${d.viaje_id} (${d.rol})`,
  atender_sos: (id) => `Atendió el SOS ${id}`,
  resolver_sos: (id, d) => `Resolvió el SOS ${id}: ${d.nota}`,
  escalar_sos: (id, d) => `Escaló el SOS ${id}, sin atender tras ${d.segundos} s`,
  enlace_sos: (id, d) => `Hizo un nuevo enlace de seguimiento del viaje ${d.viaje_id} para el SOS ${id}`,
  actualizar_configuracion: (id, d) =>
    d.valor === null ? `Devolvió el ajuste ${d.clave ?? id} a su valor por defecto` : `Cambió el ajuste ${d.clave ?? id} a «${d.valor}»`,
};

/** An audit entry as a sentence an administrator reads ("Rechazó al conductor 12: foto borrosa"). */
export function describeEntry(entry: { accion: string; objetivo_id: number; detalles: string | null }): string {
  // Only audit() writes entries, with one of AUDIT_ACTIONS.
  const sentence = SENTENCES[entry.accion as AuditAction];
  return sentence(entry.objetivo_id, entry.detalles ? (JSON.parse(entry.detalles) as Details) : {});
}
