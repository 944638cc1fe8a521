import { z } from "zod";
import { lockUser } from "../../db/locks.js";
import type { TripShare } from "../../db/models.js";
import { authorize, owner, type Actor } from "../actor.js";
import type { Deps, OutgoingMail } from "../deps.js";
import { ConflictError, InvalidStateError, NotFoundError, ValidationError } from "../errors.js";
import { queueMail } from "../mail/outbox.js";
import { getTrip } from "../trips/queries.js";
import { isFinal } from "../trip-states.js";
import { fieldParser, missingOr, optional, parseInput, positiveId, type Raw } from "../validation.js";
import { SAFETY_RULES } from "./access.js";
import { contactsOf } from "./contacts.js";
import { shareMail } from "./share-mail.js";
import { createTripShare, isShowing, showsUntil, TOLD } from "./share-links.js";

/** Links one person makes for one trip: room for a new one after a mistake, too few to flood anyone's inbox. */
export const MAX_SHARES_PER_TRIP = 5;

const shareSchema = z.object({
  trip_id: positiveId(),
  enviar_a_contactos: optional(z.boolean({ error: missingOr("debe ser true o false") })),
});
const parseLinkId = fieldParser("enlace_id", positiveId());

/** What decides whether a link shows its trip. */
type TripEnd = Parameters<typeof showsUntil>[0]["viaje"];

/** A link as the person who made it sees it; its address only as it is made, since its token is kept nowhere. */
export interface ShareLink {
  id: number;
  viaje_id: number;
  creado_en: Date;
  revocado_en: Date | null;
  /** Whether it shows the trip now. */
  vigente: boolean;
  /** When it stops (or stopped) showing the trip: revoked, or 30 minutes after the trip ends; null while the trip goes on. */
  vence_en: Date | null;
  url: string | null;
  /** The emergency contacts it was mailed to as it was made, by name. */
  avisados: string[];
}

type ToldShare = TripShare & { avisados: Array<{ nombre: string }> };

function linkOf(share: ToldShare, trip: TripEnd, now: Date, url: string | null = null): ShareLink {
  const link = { ...share, viaje: trip };
  return {
    id: share.id,
    viaje_id: share.viaje_id,
    creado_en: share.creado_en,
    revocado_en: share.revocado_en,
    vigente: isShowing(link, now),
    vence_en: share.revocado_en ?? showsUntil(link),
    url,
    avisados: share.avisados.map((told) => told.nombre),
  };
}

/**
 * The passenger or the driver of an active trip makes a link to follow it, and may mail it at
 * once to their emergency contacts that have an e-mail. The link and its mails are written in one
 * transaction: a refusal leaves neither.
 */
export async function shareTrip(deps: Deps, actor: Actor, input: Raw<typeof shareSchema>): Promise<ShareLink> {
  const me = owner(actor, SAFETY_RULES.own);
  const { trip_id, enviar_a_contactos = false } = parseInput(shareSchema, input);
  const now = deps.clock.now();
  const { link, mails } = await deps.db.$transaction(async (tx) => {
    const trip = await tx.trip.findUnique({ where: { id: trip_id } });
    if (!trip) throw new NotFoundError(`No existe un viaje con id ${trip_id}`);
    authorize(actor, SAFETY_RULES.share, trip);
    if (isFinal(trip.estado)) throw new InvalidStateError(`El viaje ${trip.id} ya está ${trip.estado}: solo se comparte un viaje activo`);
    // Counted holding the caller's row, so that links made at once never pass the limit.
    await lockUser(tx, deps.provider, me.id);
    if ((await tx.tripShare.count({ where: { viaje_id: trip.id, creado_por: me.id } })) >= MAX_SHARES_PER_TRIP) {
      throw new ConflictError(`Ya hiciste ${MAX_SHARES_PER_TRIP} enlaces para el viaje ${trip.id}; usa uno de ellos`);
    }
    const recipients = enviar_a_contactos ? (await contactsOf(tx, me.id)).filter((contact) => contact.email !== null) : [];
    if (enviar_a_contactos && recipients.length === 0) {
      throw new ValidationError(
        "pide enviarlo a tus contactos de emergencia, pero ninguno tiene correo: agrega el correo de alguno, o comparte tú el enlace",
        "enviar_a_contactos",
      );
    }
    const told = recipients.map((contact) => contact.nombre);
    const made = await createTripShare(tx, deps, trip, me.id, now, told);
    const sharer = await tx.user.findUniqueOrThrow({ where: { id: me.id }, select: { nombre: true } });
    const mails: OutgoingMail[] = [];
    for (const contact of recipients) {
      const mail = await shareMail(tx, { contact: { nombre: contact.nombre, email: contact.email! }, sharer, url: made.url });
      mails.push(await queueMail(tx, now, mail));
    }
    return { link: linkOf(made.share, trip, now, made.url), mails };
  });
  for (const mail of mails) deps.onMailQueued(mail);
  return link;
}

/** The links the caller made for a trip of theirs, newest first. */
export async function tripShares(deps: Deps, actor: Actor, tripId: unknown): Promise<ShareLink[]> {
  const me = owner(actor, SAFETY_RULES.own);
  const trip = await getTrip(deps, tripId);
  authorize(actor, SAFETY_RULES.share, trip);
  const shares = await deps.db.tripShare.findMany({
    where: { viaje_id: trip.id, creado_por: me.id },
    orderBy: { id: "desc" },
    include: TOLD,
  });
  const now = deps.clock.now();
  return shares.map((share) => linkOf(share, trip, now));
}

/**
 * The person who made a link revokes it: it shows the trip no more, and the pages open on it hear
 * so at once, on every process. Revoking it again changes nothing.
 */
export async function revokeTripShare(deps: Deps, actor: Actor, enlaceId: unknown): Promise<ShareLink> {
  const me = owner(actor, SAFETY_RULES.own);
  const id = parseLinkId(enlaceId);
  const now = deps.clock.now();
  const own = { id, creado_por: me.id };
  const { count } = await deps.db.tripShare.updateMany({ where: { ...own, revocado_en: null }, data: { revocado_en: now } });
  const share = await deps.db.tripShare.findFirst({ where: own, include: { viaje: true, ...TOLD } });
  if (!share) throw new NotFoundError(`No tienes un enlace de seguimiento con id ${id}`);
  if (count > 0) deps.events.publish("enlace_revocado", id, { enlace_id: id });
  const { viaje, ...link } = share;
  return linkOf(link, viaje, now);
}
