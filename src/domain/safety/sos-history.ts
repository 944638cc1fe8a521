import type { Db, Tx } from "../../db/client.js";

/** What can happen to an SOS, in the order it usually does. */
const SOS_STEPS = ["enviado", "avisado", "repetido", "escalado", "atendido", "enlace", "resuelto"] as const;
export type SosStep = (typeof SOS_STEPS)[number];

/** Adds a step to an incident's history, in the transaction of the change it records. */
export function recordStep(
  tx: Tx,
  step: { incidente_id: number; tipo: SosStep; actor_id: number | null; detalle: string | null; creado_en: Date },
) {
  return tx.sosIncidentStep.create({ data: step });
}

/** An incident's steps, oldest first, each with the name of whoever took it (null: the service). */
export async function historyOf(db: Db, incidenteId: number) {
  const steps = await db.sosIncidentStep.findMany({ where: { incidente_id: incidenteId }, orderBy: { id: "asc" } });
  const ids = [...new Set(steps.flatMap((step) => (step.actor_id === null ? [] : [step.actor_id])))];
  const people = await db.user.findMany({ where: { id: { in: ids } }, select: { id: true, nombre: true, apellido: true } });
  const names = new Map(people.map((person) => [person.id, `${person.nombre} ${person.apellido}`]));
  return steps.map((step) => ({ ...step, actor_nombre: step.actor_id === null ? null : (names.get(step.actor_id) ?? null) }));
}
