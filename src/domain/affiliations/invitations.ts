import { z } from "zod";
import type { Tx } from "../../db/client.js";
import { lockCompany } from "../../db/locks.js";
import type { Company } from "../../db/models.js";
import { announceAccountChange } from "../accounts/sessions.js";
import { overLimit } from "../accounts/throttle.js";
import type { Actor } from "../actor.js";
import { managersCompany } from "../company-scope.js";
import type { Deps } from "../deps.js";
import { InvalidStateError, NotFoundError } from "../errors.js";
import { queueMail } from "../mail/outbox.js";
import { serviceMail } from "../mail/templates.js";
import { tellManagers } from "../notifications/managers.js";
import { deliver, nothingTold, tell } from "../notifications/tell.js";
import { email, parseInput } from "../validation.js";
import { callingDriver, DRIVER_FIELDS, type Driver, moveDriver, parseRequestId, settle } from "./moves.js";

/** A company invites an address (invitada), and the driver with it accepts or declines. */

const inviteSchema = z.object({ email: email() });

/**
 * Refuses (429) an invitation past the company's limit within the window. The invitations kept are
 * what is counted, so every process sees the same count; the caller holds the company's row.
 */
async function assertInvitationAllowed(tx: Tx, deps: Pick<Deps, "clock" | "limits">, company: Company) {
  const { perCompany, windowMs } = deps.limits.driverInvitations;
  const now = deps.clock.now().getTime();
  // The oldest of the company's last perCompany invitations: while it is inside the window, the limit is reached.
  const oldest = await tx.companyAffiliation.findFirst({
    where: { empresa_id: company.id, email: { not: null }, creado_en: { gt: new Date(now - windowMs) } },
    orderBy: [{ creado_en: "desc" }, { id: "desc" }],
    skip: perCompany - 1,
    select: { creado_en: true },
  });
  if (oldest) {
    const minutes = Math.round(windowMs / 60_000);
    throw overLimit(
      `Tu empresa envió demasiadas invitaciones (como máximo ${perCompany} cada ${minutes} minutos)`,
      oldest.creado_en.getTime() + windowMs - now,
    );
  }
}

/**
 * A company invites a driver by e-mail. The answer is the same whether or not the address has a
 * driver account (an address with none is told how to sign up), so invitations reveal no accounts:
 * an open invitation names no driver until one accepts it. Inviting an address whose invitation is
 * still open answers that invitation and mails nobody; each new invitation mails someone, so a
 * company sends at most DRIVER_INVITATIONS_PER_COMPANY of them per window.
 */
export async function inviteDriver(deps: Deps, actor: Actor, input: { email: unknown }) {
  const company = await managersCompany(deps, actor);
  const { email: address } = parseInput(inviteSchema, input);
  const told = nothingTold();
  const invitation = await deps.db.$transaction(async (tx) => {
    // Two invitations from one company at once are counted one after the other.
    await lockCompany(tx, deps.provider, company.id);
    const open = await tx.companyAffiliation.findFirst({ where: { empresa_id: company.id, email: address, estado: "invitada" } });
    if (open) return open;
    await assertInvitationAllowed(tx, deps, company);
    const invitation = await tx.companyAffiliation.create({
      data: { empresa_id: company.id, email: address, estado: "invitada", creado_en: deps.clock.now() },
    });
    const driver = await tx.user.findFirst({
      where: { email: address, tipo_usuario: "conductor", eliminado_en: null },
      select: DRIVER_FIELDS,
    });
    const message = {
      tipo: "afiliacion_invitacion",
      titulo: `${company.nombre} te invita a su flota`,
      mensaje: `${company.nombre} te invita a conducir con su empresa. Acepta o rechaza la invitación desde tu cuenta de conductor.`,
    };
    if (driver) await tell(tx, deps, told, driver, message);
    else {
      const mail = await serviceMail(tx, {
        destinatario: address,
        asunto: message.titulo,
        lineas: [
          "Hola:",
          "",
          `${company.nombre} te invita a conducir con su empresa en la plataforma.`,
          "Regístrate en la app como conductor con este mismo correo y acepta la invitación desde tu cuenta.",
        ],
      });
      told.mails.push(await queueMail(tx, deps.clock.now(), mail));
    }
    return invitation;
  });
  deliver(deps, told);
  return invitation;
}

async function invitationFor(deps: Deps, driver: Driver, id: unknown) {
  const requestId = parseRequestId(id);
  const invitation = await deps.db.companyAffiliation.findUnique({ where: { id: requestId }, include: { empresa: true } });
  // An invitation carries the address it went to; a driver's own request carries none.
  const addressedToDriver = invitation?.email && (invitation.conductor_id === driver.id || invitation.email === driver.email);
  if (!invitation || !addressedToDriver) throw new NotFoundError(`No tienes una invitación con id ${requestId}`);
  if (invitation.estado !== "invitada") throw new InvalidStateError(`La invitación ${requestId} ya fue respondida`);
  return invitation;
}

/** A driver answers an invitation once; from then on it names them. */
async function answerInvitation(tx: Tx, deps: Pick<Deps, "clock">, id: number, driver: Driver, to: "aceptada" | "rechazada") {
  await settle(tx, deps, id, "invitada", to, driver.id);
  await tx.companyAffiliation.update({ where: { id }, data: { conductor_id: driver.id } });
}

/** A driver accepts a company's invitation: they now belong to it. */
export async function acceptInvitation(deps: Deps, actor: Actor, id: unknown) {
  const driver = await callingDriver(deps, actor);
  const invitation = await invitationFor(deps, driver, id);
  if (invitation.empresa.estado !== "activa") throw new InvalidStateError(`${invitation.empresa.nombre} no está activa ahora`);
  const told = nothingTold();
  const accepted = await deps.db.$transaction(async (tx) => {
    await answerInvitation(tx, deps, invitation.id, driver, "aceptada");
    await moveDriver(tx, deps, actor, driver, invitation.empresa_id, "aceptada_por_conductor");
    await tellManagers(tx, deps, told, invitation.empresa, {
      tipo: "afiliacion_aceptada",
      titulo: "Un conductor aceptó tu invitación",
      mensaje: `${driver.nombre} ${driver.apellido} aceptó unirse a ${invitation.empresa.nombre}.`,
    });
    return tx.companyAffiliation.findUniqueOrThrow({ where: { id: invitation.id } });
  });
  deliver(deps, told);
  announceAccountChange(deps, driver.id);
  return accepted;
}

/** A driver declines a company's invitation. */
export async function declineInvitation(deps: Deps, actor: Actor, id: unknown) {
  const driver = await callingDriver(deps, actor);
  const invitation = await invitationFor(deps, driver, id);
  const told = nothingTold();
  const declined = await deps.db.$transaction(async (tx) => {
    await answerInvitation(tx, deps, invitation.id, driver, "rechazada");
    await tellManagers(tx, deps, told, invitation.empresa, {
      tipo: "afiliacion_rechazada",
      titulo: "Un conductor rechazó tu invitación",
      mensaje: `${driver.nombre} ${driver.apellido} no aceptó unirse a ${invitation.empresa.nombre}.`,
    });
    return tx.companyAffiliation.findUniqueOrThrow({ where: { id: invitation.id } });
  });
  deliver(deps, told);
  return declined;
}
