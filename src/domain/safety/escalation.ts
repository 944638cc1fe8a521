import type { SosIncident } from "../../db/models.js";
import { audit, SERVICE } from "../audit/audit.js";
import type { Deps, OutgoingMail } from "../deps.js";
import { queueMail } from "../mail/outbox.js";
import { serviceMail } from "../mail/templates.js";
import { createTripShare } from "./share-links.js";
import { recordStep } from "./sos-history.js";
import { escalationMail } from "./sos-mail.js";
import { announceSos } from "./sos-feed.js";
import { viewOf } from "./sos-views.js";

/**
 * Escalates one incident if it is still due: the conditional update claims it, so of several
 * processes (or an operator acknowledging it at that moment) one wins. The mail to
 * SOS_ESCALATION_EMAIL carries a new link to follow the trip (the first one is kept only hashed).
 */
async function escalate(deps: Deps, incident: SosIncident): Promise<void> {
  const now = deps.clock.now();
  const seconds = Math.round(deps.safety.sosEscalateMs / 1000);
  const mails: OutgoingMail[] = [];
  const view = await deps.db.$transaction(async (tx) => {
    const { count } = await tx.sosIncident.updateMany({
      where: { id: incident.id, estado: "abierto", escalar_en: { lte: now } },
      data: { escalar_en: null, escalado_en: now },
    });
    if (count === 0) return null;
    const to = deps.safety.sosEscalationEmail;
    if (to) {
      const sender = await tx.user.findUniqueOrThrow({
        where: { id: incident.usuario_id },
        select: { nombre: true, apellido: true, telefono: true },
      });
      const trip = await tx.trip.findUniqueOrThrow({ where: { id: incident.viaje_id } });
      const { url } = await createTripShare(tx, deps, trip, incident.usuario_id, now);
      mails.push(await queueMail(tx, now, await serviceMail(tx, escalationMail(deps, incident, sender, to, url, seconds))));
    }
    await recordStep(tx, {
      incidente_id: incident.id,
      tipo: "escalado",
      actor_id: null,
      detalle: `Sin atender tras ${seconds} s: ${to ? `correo a ${to}` : "sin SOS_ESCALATION_EMAIL, nadie más fue avisado"}`,
      creado_en: now,
    });
    await audit(tx, deps, SERVICE, {
      accion: "escalar_sos",
      objetivo_tipo: "incidente_sos",
      objetivo_id: incident.id,
      detalles: { segundos: seconds },
    });
    return viewOf(tx, { ...incident, escalar_en: null, escalado_en: now });
  });
  if (!view) return;
  announceSos(deps, view);
  for (const mail of mails) deps.onMailQueued(mail);
}

/** Escalates every incident due now, oldest first; answers how many were due. */
export async function escalateDue(deps: Deps): Promise<number> {
  const due = await deps.db.sosIncident.findMany({
    where: { estado: "abierto", escalar_en: { lte: deps.clock.now() } },
    orderBy: { id: "asc" },
    take: 100,
  });
  for (const incident of due) await escalate(deps, incident);
  return due.length;
}
