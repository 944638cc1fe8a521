import { z } from "zod";
import type { Prisma, Tx } from "../../db/client.js";
import type { SosIncident } from "../../db/models.js";
import { isAdmin, member, type Actor } from "../actor.js";
import { audit } from "../audit/audit.js";
import { pageFields, pageOf } from "../paging.js";
import { managersCompany } from "../company-scope.js";
import type { Deps } from "../deps.js";
import { ForbiddenError, InvalidStateError, NotFoundError } from "../errors.js";
import { fieldParser, oneOf, optional, parseInput, positiveId, text, type Raw } from "../validation.js";
import { createTripShare } from "./share-links.js";
import { SOS_RULES } from "./sos-access.js";
import { historyOf, recordStep } from "./sos-history.js";
import { announceSos } from "./sos-feed.js";
import { OPEN_SOS_STATES, SOS_EVERYONE, SOS_STATES, type SosView, viewOf, viewsOf } from "./sos-views.js";

const parseIncidentId = fieldParser("incidente_id", positiveId());

/**
 * The incidents a reader may see: every one for an administrator, those of the trips done for a
 * manager's company for its managers. `key` is where their changes are announced (sos-views.ts).
 */
export async function sosScope(deps: Pick<Deps, "db">, actor: Actor): Promise<{ where: Prisma.SosIncidentWhereInput; key: number }> {
  member(actor, SOS_RULES.read);
  if (isAdmin(actor)) return { where: {}, key: SOS_EVERYONE };
  const company = await managersCompany(deps, actor);
  return { where: { empresa_id: company.id }, key: company.id };
}

const listSchema = z.object({ estado: optional(oneOf(SOS_STATES)), ...pageFields });

/** Incidents newest first, by state, within the reader's scope. */
export async function listSosIncidents(deps: Deps, actor: Actor, input: Raw<typeof listSchema>) {
  const { where: scope } = await sosScope(deps, actor);
  const { estado, ...paging } = parseInput(listSchema, input);
  const where = { ...scope, ...(estado ? { estado } : {}) };
  const page = pageOf(paging);
  const [rows, total] = await Promise.all([
    deps.db.sosIncident.findMany({ where, orderBy: { id: "desc" }, skip: page.skip, take: page.take }),
    deps.db.sosIncident.count({ where }),
  ]);
  return { items: await viewsOf(deps.db, rows), pagination: page.pagination(total) };
}

/** The incidents not resolved yet within the reader's scope, newest first: what a console shows as it opens. */
export async function openSosIncidents(deps: Pick<Deps, "db">, where: Prisma.SosIncidentWhereInput): Promise<SosView[]> {
  const rows = await deps.db.sosIncident.findMany({
    where: { ...where, estado: { in: [...OPEN_SOS_STATES] } },
    orderBy: { id: "desc" },
    take: 100,
  });
  return viewsOf(deps.db, rows);
}

/** One incident within the reader's scope, with its history. */
export async function sosIncident(deps: Deps, actor: Actor, id: unknown) {
  const incidentId = parseIncidentId(id);
  const { where } = await sosScope(deps, actor);
  const incident = await deps.db.sosIncident.findUnique({ where: { id: incidentId } });
  if (!incident) throw new NotFoundError(`No existe un SOS con id ${incidentId}`);
  if (where.empresa_id !== undefined && incident.empresa_id !== where.empresa_id) {
    throw new ForbiddenError("Solo ves los SOS de los viajes de tu empresa");
  }
  return { ...(await viewOf(deps.db, incident)), historial: await historyOf(deps.db, incidentId) };
}

/**
 * Moves an incident from `from` with one conditional update, so that of two operators at once one
 * does it and the other is told it was done; then records the step and the audit entry, in the
 * same transaction, and announces it once committed.
 */
async function moveIncident(
  deps: Deps,
  id: unknown,
  change: {
    from: SosIncident["estado"];
    data: Prisma.SosIncidentUpdateManyMutationInput;
    refusal: (incident: SosIncident) => string;
    record: (tx: Tx, incident: SosIncident) => Promise<void>;
  },
): Promise<SosView> {
  const incidentId = parseIncidentId(id);
  const view = await deps.db.$transaction(async (tx) => {
    const { count } = await tx.sosIncident.updateMany({ where: { id: incidentId, estado: change.from }, data: change.data });
    const incident = await tx.sosIncident.findUnique({ where: { id: incidentId } });
    if (!incident) throw new NotFoundError(`No existe un SOS con id ${incidentId}`);
    if (count === 0) throw new InvalidStateError(change.refusal(incident));
    await change.record(tx, incident);
    return viewOf(tx, incident);
  });
  announceSos(deps, view);
  return view;
}

/** An operator takes an open incident: it is no longer escalated, and the consoles show who took it. */
export function acknowledgeSos(deps: Deps, actor: Actor, id: unknown): Promise<SosView> {
  const operator = member(actor, SOS_RULES.operate);
  const now = deps.clock.now();
  return moveIncident(deps, id, {
    from: "abierto",
    data: { estado: "atendido", atendido_por: operator.id, atendido_en: now, escalar_en: null },
    refusal: (incident) => `El SOS ${incident.id} ya está ${incident.estado}`,
    record: async (tx, incident) => {
      await recordStep(tx, { incidente_id: incident.id, tipo: "atendido", actor_id: operator.id, detalle: null, creado_en: now });
      await audit(tx, deps, actor, { accion: "atender_sos", objetivo_tipo: "incidente_sos", objetivo_id: incident.id });
    },
  });
}

const resolveSchema = z.object({ nota: text(1000) });

/** The operator who acknowledged an incident, or another, closes it saying what was done. */
export function resolveSos(deps: Deps, actor: Actor, id: unknown, input: Raw<typeof resolveSchema>): Promise<SosView> {
  const operator = member(actor, SOS_RULES.operate);
  const { nota } = parseInput(resolveSchema, input);
  const now = deps.clock.now();
  return moveIncident(deps, id, {
    from: "atendido",
    data: { estado: "resuelto", resuelto_por: operator.id, resuelto_en: now, nota },
    refusal: (incident) =>
      incident.estado === "abierto" ? `Atiende el SOS ${incident.id} antes de resolverlo` : `El SOS ${incident.id} ya está resuelto`,
    record: async (tx, incident) => {
      await recordStep(tx, { incidente_id: incident.id, tipo: "resuelto", actor_id: operator.id, detalle: nota, creado_en: now });
      await audit(tx, deps, actor, {
        accion: "resolver_sos",
        objetivo_tipo: "incidente_sos",
        objetivo_id: incident.id,
        detalles: { nota },
      });
    },
  });
}

/**
 * A new link to follow the incident's trip, for the operator who asks: the one made with the SOS is
 * kept only as a hash, so a console that reloads cannot show it again. Answered to the caller only.
 */
export async function shareSosTrip(deps: Deps, actor: Actor, id: unknown): Promise<SosView> {
  const operator = member(actor, SOS_RULES.operate);
  const incidentId = parseIncidentId(id);
  const now = deps.clock.now();
  const { view, link } = await deps.db.$transaction(async (tx) => {
    const incident = await tx.sosIncident.findUnique({ where: { id: incidentId } });
    if (!incident) throw new NotFoundError(`No existe un SOS con id ${incidentId}`);
    const trip = await tx.trip.findUniqueOrThrow({ where: { id: incident.viaje_id } });
    const { url } = await createTripShare(tx, deps, trip, operator.id, now);
    await recordStep(tx, {
      incidente_id: incident.id,
      tipo: "enlace",
      actor_id: operator.id,
      detalle: "Nuevo enlace de seguimiento",
      creado_en: now,
    });
    await audit(tx, deps, actor, {
      accion: "enlace_sos",
      objetivo_tipo: "incidente_sos",
      objetivo_id: incident.id,
      detalles: { viaje_id: incident.viaje_id },
    });
    return { view: await viewOf(tx, incident), link: url };
  });
  // Other consoles hear of the step, not of the link.
  announceSos(deps, view);
  return { ...view, enlace: link };
}
