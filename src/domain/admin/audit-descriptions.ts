import type { AuditAction } from "./audit.js";

type Details = Record<string, unknown>;

/** What was sent, as "campo valor, …", for the entries that record changed fields. */
const listed = (details: Details, leaving: string[] = []) =>
  Object.entries(details)
    .filter(([name, value]) => value !== undefined && !leaving.includes(name))
    .map(([name, value]) => `${name} ${typeof value === "string" ? value : JSON.stringify(value)}`)
    .join(", ");

const withReason = (sentence: string, details: Details) =>
  typeof details.motivo === "string" ? `${sentence}: ${details.motivo}` : sentence;
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
  actualizar_configuracion: (id, d) =>
    d.valor === null ? `Devolvió el ajuste ${d.clave ?? id} a su valor por defecto` : `Cambió el ajuste ${d.clave ?? id} a «${d.valor}»`,
};

/** An audit entry as a sentence an administrator reads ("Rechazó al conductor 12: foto borrosa"). */
export function describeEntry(entry: { accion: string; objetivo_id: number; detalles: string | null }): string {
  // Only audit() writes entries, with one of AUDIT_ACTIONS.
  const sentence = SENTENCES[entry.accion as AuditAction];
  return sentence(entry.objetivo_id, entry.detalles ? (JSON.parse(entry.detalles) as Details) : {});
}
