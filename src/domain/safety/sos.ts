import { z } from "zod";
import { lockUser } from "../../db/locks.js";
import { authorize, member, type Actor } from "../actor.js";
import { audit } from "../audit/audit.js";
import type { Deps, OutgoingMail } from "../deps.js";
import { NotFoundError } from "../errors.js";
import { queueMail } from "../mail/outbox.js";
import { serviceMail } from "../mail/templates.js";
import { latitude, longitude, parseInput, positiveId, type Raw } from "../validation.js";
import { contactsOf } from "./contacts.js";
import { createTripShare } from "./share-links.js";
import { SOS_RULES } from "./sos-access.js";
import { recordStep } from "./sos-history.js";
import { contactMail, operationsMail } from "./sos-mail.js";
import { announceSos } from "./sos-feed.js";
import { type SosView, viewOf } from "./sos-views.js";

/** An SOS from the same person and trip this soon after another is the same one, sent again. */
export const SOS_REPEAT_MS = 60_000;

const sendSchema = z.object({ viaje_id: positiveId(), latitud: latitude(), longitud: longitude() });

const position = ({ latitud, longitud }: { latitud: number; longitud: number }) => `Posición ${latitud}, ${longitud}`;

/**
 * The passenger or the driver of an active trip asks for help. One transaction records the
 * incident, a link to follow the trip, the mails to the sender's emergency contacts and to the
 * operations team, its first steps and an audit entry; the consoles hear of it once that commits.
 * The same person and trip within a minute make one incident whatever the processes: the sender's
 * row is held while the last minute is looked at, so a second SOS at once waits for the first and
 * then finds it (its position is kept as a step, and nobody is mailed twice).
 */
export async function sendSos(deps: Deps, actor: Actor, input: Raw<typeof sendSchema>): Promise<SosView> {
  const sender = member(actor);
  const { viaje_id, latitud, longitud } = parseInput(sendSchema, input);
  const trip = await deps.db.trip.findUnique({ where: { id: viaje_id } });
  if (!trip) throw new NotFoundError(`No existe un viaje con id ${viaje_id}`);
  authorize(actor, SOS_RULES.send, trip);
  const now = deps.clock.now();
  const mails: OutgoingMail[] = [];
  const view = await deps.db.$transaction(async (tx) => {
    await lockUser(tx, deps.provider, sender.id);
    const recent = await tx.sosIncident.findFirst({
      where: { viaje_id, usuario_id: sender.id, creado_en: { gte: new Date(now.getTime() - SOS_REPEAT_MS) } },
      orderBy: { id: "desc" },
    });
    if (recent) {
      await recordStep(tx, {
        incidente_id: recent.id,
        tipo: "repetido",
        actor_id: sender.id,
        detalle: position({ latitud, longitud }),
        creado_en: now,
      });
      return viewOf(tx, recent);
    }
    const person = await tx.user.findUniqueOrThrow({ where: { id: sender.id }, select: { nombre: true, apellido: true, telefono: true } });
    const rol = trip.usuario_id === sender.id ? "pasajero" : "conductor";
    const contacts = (await contactsOf(tx, sender.id)).flatMap((contact) => (contact.email ? [{ ...contact, email: contact.email }] : []));
    const { share, url } = await createTripShare(
      tx,
      deps,
      trip,
      sender.id,
      now,
      contacts.map((contact) => contact.nombre),
    );
    const incident = await tx.sosIncident.create({
      data: {
        viaje_id,
        usuario_id: sender.id,
        rol,
        empresa_id: trip.empresa_id,
        latitud,
        longitud,
        creado_en: now,
        escalar_en: new Date(now.getTime() + deps.safety.sosEscalateMs),
        compartido_id: share.id,
      },
    });
    await recordStep(tx, { incidente_id: incident.id, tipo: "enviado", actor_id: sender.id, detalle: position(incident), creado_en: now });

    const drafts = contacts.map((contact) => contactMail(incident, person, contact, url));
    if (deps.safety.sosEmail) drafts.push(operationsMail(deps, incident, person, deps.safety.sosEmail, url));
    for (const draft of drafts) mails.push(await queueMail(tx, now, await serviceMail(tx, draft)));
    const told = [
      contacts.length > 0 ? `sus contactos de emergencia ${contacts.map((contact) => contact.nombre).join(", ")}` : null,
      deps.safety.sosEmail ? `operaciones (${deps.safety.sosEmail})` : null,
    ].filter(Boolean);
    await recordStep(tx, {
      incidente_id: incident.id,
      tipo: "avisado",
      actor_id: null,
      detalle: told.length > 0 ? `Correo a ${told.join(" y a ")}` : "Nadie a quien escribir: sin contactos con correo ni SOS_EMAIL",
      creado_en: now,
    });
    await audit(tx, deps, actor, {
      accion: "enviar_sos",
      objetivo_tipo: "incidente_sos",
      objetivo_id: incident.id,
      detalles: { viaje_id, rol, latitud, longitud },
    });
    return viewOf(tx, incident, url);
  });
  announceSos(deps, view);
  for (const mail of mails) deps.onMailQueued(mail);
  return view;
}
