import { z } from "zod";
import type { Tx } from "../../db/client.js";
import { lockCompany } from "../../db/locks.js";
import type { Company, User } from "../../db/models.js";
import { announceAccountChange } from "../accounts/sessions.js";
import { overLimit } from "../accounts/throttle.js";
import { authorize, isAdmin, isMember, member, rule, type Actor } from "../actor.js";
import { audit } from "../audit/audit.js";
import { pageFields, pageOf } from "../paging.js";
import type { Deps } from "../deps.js";
import { ForbiddenError, InvalidStateError, NotFoundError, ValidationError } from "../errors.js";
import { queueMail } from "../mail/outbox.js";
import { serviceMail } from "../mail/templates.js";
import { deliver, nothingTold, tell, type Told } from "../notifications/tell.js";
import { email, fieldParser, oneOf, optional, parseInput, positiveId, text, type Raw } from "../validation.js";
import { COMPANY_RULES, companyInScope, managersCompany } from "../company-scope.js";
import { tellManagers } from "../notifications/managers.js";

/*
 * A driver belongs to a company only with both sides' consent: the driver asks (solicitada) and the
 * company accepts, or the company invites an address (invitada) and the driver accepts. Administrators
 * may set or clear a driver's company directly. Every change of a driver's company is kept in
 * historial_afiliaciones, and the other side is told on their feed and by mail.
 */

export const AFFILIATION_STATES = ["solicitada", "invitada", "aceptada", "rechazada", "retirada"] as const;
const OPEN = ["solicitada", "invitada"];

/** What moved a driver's company, as historial_afiliaciones records it. */
export const AFFILIATION_ACTIONS = [
  "aceptada_por_empresa",
  "aceptada_por_conductor",
  "terminada_por_empresa",
  "retiro_del_conductor",
  "asignada_por_administrador",
] as const;
type AffiliationAction = (typeof AFFILIATION_ACTIONS)[number];

const isDriver = (actor: Actor) => isMember(actor) && actor.role === "conductor";
const DRIVERS_ONLY = rule("Esta operación es para conductores", isDriver);

const parseRequestId = fieldParser("solicitud_id", positiveId());
const parseDriverId = fieldParser("conductor_id", positiveId());
const parseEmpresaId = fieldParser("empresa_id", positiveId());

const DRIVER_FIELDS = {
  id: true,
  nombre: true,
  apellido: true,
  email: true,
  empresa_id: true,
  tipo_usuario: true,
  es_activo: true,
} as const;
type Driver = Pick<User, keyof typeof DRIVER_FIELDS>;

async function callingDriver(deps: Deps, actor: Actor): Promise<Driver> {
  const { id } = member(actor, DRIVERS_ONLY);
  return deps.db.user.findUniqueOrThrow({ where: { id }, select: DRIVER_FIELDS });
}

/** A company a driver may ask to join: one that exists and operates; otherwise a 400 naming empresa_id. */
export async function joinableCompany(deps: Pick<Deps, "db">, empresaId: unknown): Promise<Company> {
  const id = parseEmpresaId(empresaId);
  const company = await deps.db.company.findUnique({ where: { id } });
  if (company?.estado !== "activa") throw new ValidationError(`no corresponde a ninguna empresa activa (${id})`, "empresa_id");
  return company;
}

/** Moves a driver from one company (or none) to another (or none), and keeps the change. */
async function moveDriver(tx: Tx, deps: Pick<Deps, "clock">, actor: Actor, driver: Driver, to: number | null, accion: AffiliationAction) {
  await tx.user.update({ where: { id: driver.id }, data: { empresa_id: to } });
  await tx.affiliationChange.create({
    data: {
      conductor_id: driver.id,
      empresa_anterior_id: driver.empresa_id,
      empresa_nueva_id: to,
      accion,
      actor_id: isMember(actor) ? (actor.actingAdminId ?? actor.id) : null,
      creado_en: deps.clock.now(),
    },
  });
  // Whatever else the driver had open is settled by the move.
  await tx.companyAffiliation.updateMany({
    where: { conductor_id: driver.id, estado: "solicitada" },
    data: { estado: "retirada", resuelta_en: deps.clock.now() },
  });
}

/**
 * Opens a driver's request to join a company inside the caller's transaction (the driver's vehicle
 * form sends it with the rest): an earlier open request of theirs is withdrawn, one to the same
 * company is kept, and the company's managers are told. Naming the company they belong to asks nothing.
 */
export async function openRequest(tx: Tx, deps: Pick<Deps, "clock">, told: Told, driver: Driver, company: Company) {
  if (driver.empresa_id === company.id) return null;
  const open = await tx.companyAffiliation.findFirst({ where: { conductor_id: driver.id, empresa_id: company.id, estado: "solicitada" } });
  if (open) return open;
  const now = deps.clock.now();
  await tx.companyAffiliation.updateMany({
    where: { conductor_id: driver.id, estado: "solicitada" },
    data: { estado: "retirada", resuelta_en: now },
  });
  const request = await tx.companyAffiliation.create({
    data: { empresa_id: company.id, conductor_id: driver.id, estado: "solicitada", creado_en: now },
  });
  await tellManagers(tx, deps, told, company, {
    tipo: "afiliacion_solicitada",
    titulo: "Un conductor quiere unirse a tu empresa",
    mensaje: `${driver.nombre} ${driver.apellido} pidió afiliarse a ${company.nombre}. Acepta o rechaza la solicitud en la consola.`,
  });
  return request;
}

/** A driver asks to join a company; their company changes only when it accepts. */
export async function requestAffiliation(deps: Deps, actor: Actor, empresaId: unknown) {
  const driver = await callingDriver(deps, actor);
  const company = await joinableCompany(deps, empresaId);
  if (driver.empresa_id === company.id) throw new InvalidStateError(`Ya perteneces a ${company.nombre}`);
  const told = nothingTold();
  const request = await deps.db.$transaction((tx) => openRequest(tx, deps, told, driver, company));
  deliver(deps, told);
  return request!;
}

/** The driver's own requests and the invitations to their address, open ones first. */
export async function myAffiliations(deps: Deps, actor: Actor) {
  const driver = await callingDriver(deps, actor);
  const requests = await deps.db.companyAffiliation.findMany({
    where: { OR: [{ conductor_id: driver.id }, { email: driver.email, estado: "invitada" }] },
    orderBy: [{ creado_en: "desc" }, { id: "desc" }],
    take: 50,
  });
  return requests.sort((a, b) => Number(OPEN.includes(b.estado)) - Number(OPEN.includes(a.estado)));
}

const listSchema = z.object({ ...pageFields, estado: optional(oneOf(AFFILIATION_STATES)), empresa_id: optional(positiveId()) });

/** A company's requests and invitations, newest first: the calling manager's, or the company an administrator names. */
export async function companyAffiliations(deps: Deps, actor: Actor, input: Raw<typeof listSchema>) {
  const { estado, empresa_id, ...pageInput } = parseInput(listSchema, input);
  const company = await companyInScope(deps, actor, empresa_id);
  const { skip, take, pagination } = pageOf(pageInput);
  const where = { empresa_id: company.id, ...(estado ? { estado } : {}) };
  const [total, items] = await Promise.all([
    deps.db.companyAffiliation.count({ where }),
    deps.db.companyAffiliation.findMany({ where, orderBy: [{ creado_en: "desc" }, { id: "desc" }], skip, take }),
  ]);
  return { items, pagination: pagination(total) };
}

/** Settles an open request or invitation once: two answers at the same moment, only one counts. */
async function settle(tx: Tx, deps: Pick<Deps, "clock">, id: number, from: string, to: string, by: number, motivo?: string) {
  const { count } = await tx.companyAffiliation.updateMany({
    where: { id, estado: from },
    data: { estado: to, resuelta_en: deps.clock.now(), resuelta_por: by, ...(motivo ? { motivo } : {}) },
  });
  if (count === 0) throw new InvalidStateError(`La solicitud ${id} ya fue respondida`);
}

async function companysRequest(deps: Deps, company: Company, id: unknown) {
  const requestId = parseRequestId(id);
  const request = await deps.db.companyAffiliation.findUnique({ where: { id: requestId } });
  if (!request || request.empresa_id !== company.id)
    throw new NotFoundError(`${company.nombre} no tiene una solicitud con id ${requestId}`);
  if (request.estado !== "solicitada") throw new InvalidStateError(`La solicitud ${requestId} está ${request.estado}`);
  return request;
}

/** A company accepts a driver's request: the driver now belongs to it. */
export async function acceptAffiliation(deps: Deps, actor: Actor, id: unknown) {
  const company = await managersCompany(deps, actor);
  const request = await companysRequest(deps, company, id);
  const manager = member(actor).id;
  const told = nothingTold();
  const accepted = await deps.db.$transaction(async (tx) => {
    const driver = await tx.user.findUniqueOrThrow({ where: { id: request.conductor_id! }, select: DRIVER_FIELDS });
    await settle(tx, deps, request.id, "solicitada", "aceptada", manager);
    await moveDriver(tx, deps, actor, driver, company.id, "aceptada_por_empresa");
    await tell(tx, deps, told, driver, {
      tipo: "afiliacion_aceptada",
      titulo: "Tu solicitud fue aceptada",
      mensaje: `Ya perteneces a ${company.nombre}.`,
    });
    return tx.companyAffiliation.findUniqueOrThrow({ where: { id: request.id } });
  });
  deliver(deps, told);
  announceAccountChange(deps, request.conductor_id!);
  return accepted;
}

const reasonSchema = z.object({ motivo: optional(text(500)) });

/** A company turns a driver's request down, saying why if it wants to. */
export async function refuseAffiliation(deps: Deps, actor: Actor, id: unknown, input: { motivo?: unknown }) {
  const company = await managersCompany(deps, actor);
  const request = await companysRequest(deps, company, id);
  const { motivo } = parseInput(reasonSchema, input);
  const told = nothingTold();
  const refused = await deps.db.$transaction(async (tx) => {
    await settle(tx, deps, request.id, "solicitada", "rechazada", member(actor).id, motivo);
    const driver = await tx.user.findUniqueOrThrow({ where: { id: request.conductor_id! }, select: DRIVER_FIELDS });
    await tell(tx, deps, told, driver, {
      tipo: "afiliacion_rechazada",
      titulo: "Tu solicitud no fue aceptada",
      mensaje: `${company.nombre} no aceptó tu solicitud${motivo ? `. Motivo: ${motivo}` : "."}`,
    });
    return tx.companyAffiliation.findUniqueOrThrow({ where: { id: request.id } });
  });
  deliver(deps, told);
  return refused;
}

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

/** A company lets one of its drivers go. */
export async function endAffiliation(deps: Deps, actor: Actor, conductorId: unknown, input: { motivo?: unknown }) {
  const company = await managersCompany(deps, actor);
  const id = parseDriverId(conductorId);
  const { motivo } = parseInput(reasonSchema, input);
  const driver = await deps.db.user.findUnique({ where: { id }, select: DRIVER_FIELDS });
  if (!driver || driver.empresa_id !== company.id || driver.tipo_usuario !== "conductor") {
    throw new NotFoundError(`${company.nombre} no tiene un conductor con id ${id}`);
  }
  const told = nothingTold();
  await deps.db.$transaction(async (tx) => {
    await moveDriver(tx, deps, actor, driver, null, "terminada_por_empresa");
    await tell(tx, deps, told, driver, {
      tipo: "afiliacion_terminada",
      titulo: "Ya no perteneces a una empresa",
      mensaje: `${company.nombre} terminó tu afiliación${motivo ? `. Motivo: ${motivo}` : "."}`,
    });
  });
  deliver(deps, told);
  announceAccountChange(deps, id);
  return deps.db.user.findUniqueOrThrow({ where: { id } });
}

/** A driver leaves their company. */
export async function leaveCompany(deps: Deps, actor: Actor) {
  const driver = await callingDriver(deps, actor);
  if (driver.empresa_id === null) throw new InvalidStateError("No perteneces a ninguna empresa");
  const company = await deps.db.company.findUniqueOrThrow({ where: { id: driver.empresa_id } });
  const told = nothingTold();
  await deps.db.$transaction(async (tx) => {
    await moveDriver(tx, deps, actor, driver, null, "retiro_del_conductor");
    await tellManagers(tx, deps, told, company, {
      tipo: "afiliacion_terminada",
      titulo: "Un conductor dejó tu empresa",
      mensaje: `${driver.nombre} ${driver.apellido} dejó ${company.nombre}.`,
    });
  });
  deliver(deps, told);
  announceAccountChange(deps, driver.id);
  return deps.db.user.findUniqueOrThrow({ where: { id: driver.id } });
}

/**
 * An administrator sets or clears a driver's company (user_management.php's empresa_id), inside the
 * change's own transaction: kept in the history, audited, and both sides told.
 */
export async function assignCompany(tx: Tx, deps: Pick<Deps, "clock">, actor: Actor, told: Told, userId: number, to: number | null) {
  authorize(actor, COMPANY_RULES.administer);
  const driver = await tx.user.findUniqueOrThrow({ where: { id: userId }, select: DRIVER_FIELDS });
  if (driver.empresa_id === to) return;
  await moveDriver(tx, deps, actor, driver, to, "asignada_por_administrador");
  await audit(tx, deps, actor, {
    accion: "afiliar_conductor",
    objetivo_tipo: "conductor",
    objetivo_id: userId,
    detalles: { empresa_id: to },
  });
  if (driver.tipo_usuario !== "conductor") return;
  const company = to === null ? null : await tx.company.findUniqueOrThrow({ where: { id: to } });
  await tell(tx, deps, told, driver, {
    tipo: "afiliacion_asignada",
    titulo: company ? `Ahora perteneces a ${company.nombre}` : "Ya no perteneces a una empresa",
    mensaje: company ? `Un administrador te afilió a ${company.nombre}.` : "Un administrador terminó tu afiliación a tu empresa.",
  });
  if (company) {
    await tellManagers(tx, deps, told, company, {
      tipo: "afiliacion_asignada",
      titulo: "Un conductor se unió a tu empresa",
      mensaje: `Un administrador afilió a ${driver.nombre} ${driver.apellido} a ${company.nombre}.`,
    });
  }
}

/** The changes of a driver's company, newest first: for the driver, their company's managers and administrators. */
export async function affiliationHistory(deps: Deps, actor: Actor, conductorId?: unknown) {
  const subject = conductorId === undefined || conductorId === null ? member(actor).id : parseDriverId(conductorId);
  if (!isAdmin(actor) && !(isMember(actor) && actor.id === subject)) {
    const company = await managersCompany(deps, actor);
    const driver = await deps.db.user.findUnique({ where: { id: subject }, select: { empresa_id: true } });
    if (driver?.empresa_id !== company.id) throw new ForbiddenError("Solo puedes ver la historia de los conductores de tu empresa");
  }
  return deps.db.affiliationChange.findMany({
    where: { conductor_id: subject },
    orderBy: [{ creado_en: "desc" }, { id: "desc" }],
    take: 100,
  });
}
