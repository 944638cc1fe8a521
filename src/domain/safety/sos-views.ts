import type { Db, Tx } from "../../db/client.js";
import type { SosIncident } from "../../db/models.js";

/** Where every SOS is announced for the operators; a company's are also announced under its id (ids start at 1). */
export const SOS_EVERYONE = 0;

/** The states of an SOS: sent and waiting for an operator, acknowledged, resolved with a note. */
export const SOS_STATES = ["abierto", "atendido", "resuelto"] as const;
export type SosState = (typeof SOS_STATES)[number];
/** Not resolved yet: what the console keeps on every page. */
export const OPEN_SOS_STATES = ["abierto", "atendido"] as const satisfies readonly SosState[];

/** An incident as operators see it: with who sent it and, where known, the link that follows its trip. */
export interface SosView extends SosIncident {
  remitente: { nombre: string; apellido: string; telefono: string } | null;
  /**
   * The link to follow the trip, only where it was just made: in the alert sent with the incident,
   * or answering whoever made a new one. Tokens are kept only as hashes, so it cannot be read again.
   */
  enlace: string | null;
  /** The id of its newest step: of two views of one incident, the one with the higher is the newer. */
  version: number;
  /** Escalated and still waiting for an operator; once taken it is no longer, and escalado_en keeps when it was. */
  escalado: boolean;
}

/** Views of `incidents` in two queries whatever their number; `links` gives the links just made, by incident. */
export async function viewsOf(db: Db | Tx, incidents: SosIncident[], links: ReadonlyMap<number, string> = new Map()): Promise<SosView[]> {
  if (incidents.length === 0) return [];
  const senders = await db.user.findMany({
    where: { id: { in: [...new Set(incidents.map((incident) => incident.usuario_id))] } },
    select: { id: true, nombre: true, apellido: true, telefono: true },
  });
  const newest = await db.sosIncidentStep.groupBy({
    by: ["incidente_id"],
    where: { incidente_id: { in: incidents.map((incident) => incident.id) } },
    _max: { id: true },
  });
  const byId = new Map(senders.map(({ id, ...sender }) => [id, sender]));
  const versions = new Map(newest.map((group) => [group.incidente_id, group._max.id ?? 0]));
  return incidents.map((incident) => ({
    ...incident,
    remitente: byId.get(incident.usuario_id) ?? null,
    enlace: links.get(incident.id) ?? null,
    version: versions.get(incident.id) ?? 0,
    escalado: incident.estado === "abierto" && incident.escalado_en !== null,
  }));
}

export async function viewOf(db: Db | Tx, incident: SosIncident, link?: string): Promise<SosView> {
  const [view] = await viewsOf(db, [incident], new Map(link ? [[incident.id, link]] : []));
  return view!;
}
