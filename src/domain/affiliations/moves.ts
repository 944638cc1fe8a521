import { z } from "zod";
import type { Tx } from "../../db/client.js";
import type { User } from "../../db/models.js";
import { isMember, member, type Actor } from "../actor.js";
import type { Deps } from "../deps.js";
import { InvalidStateError } from "../errors.js";
import { fieldParser, optional, positiveId, text } from "../validation.js";
import { AFFILIATION_RULES } from "./access.js";

/*
 * A driver belongs to a company only with both sides' consent: the driver asks (solicitada) and the
 * company accepts, or the company invites an address (invitada) and the driver accepts. Administrators
 * may set or clear a driver's company directly. Every change of a driver's company is kept in
 * historial_afiliaciones, and the other side is told on their feed and by mail.
 */

export const AFFILIATION_STATES = ["solicitada", "invitada", "aceptada", "rechazada", "retirada"] as const;
export const OPEN = ["solicitada", "invitada"];

/** What moved a driver's company, as historial_afiliaciones records it. */
export const AFFILIATION_ACTIONS = [
  "aceptada_por_empresa",
  "aceptada_por_conductor",
  "terminada_por_empresa",
  "retiro_del_conductor",
  "asignada_por_administrador",
] as const;
type AffiliationAction = (typeof AFFILIATION_ACTIONS)[number];

export const parseRequestId = fieldParser("solicitud_id", positiveId());
export const parseDriverId = fieldParser("conductor_id", positiveId());
export const parseEmpresaId = fieldParser("empresa_id", positiveId());

export const DRIVER_FIELDS = {
  id: true,
  nombre: true,
  apellido: true,
  email: true,
  empresa_id: true,
  tipo_usuario: true,
  es_activo: true,
} as const;
export type Driver = Pick<User, keyof typeof DRIVER_FIELDS>;

export async function callingDriver(deps: Deps, actor: Actor): Promise<Driver> {
  const { id } = member(actor, AFFILIATION_RULES.driver);
  return deps.db.user.findUniqueOrThrow({ where: { id }, select: DRIVER_FIELDS });
}

/** Moves a driver from one company (or none) to another (or none), and keeps the change. */
export async function moveDriver(
  tx: Tx,
  deps: Pick<Deps, "clock">,
  actor: Actor,
  driver: Driver,
  to: number | null,
  accion: AffiliationAction,
) {
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

/** Settles an open request or invitation once: two answers at the same moment, only one counts. */
export async function settle(tx: Tx, deps: Pick<Deps, "clock">, id: number, from: string, to: string, by: number, motivo?: string) {
  const { count } = await tx.companyAffiliation.updateMany({
    where: { id, estado: from },
    data: { estado: to, resuelta_en: deps.clock.now(), resuelta_por: by, ...(motivo ? { motivo } : {}) },
  });
  if (count === 0) throw new InvalidStateError(`La solicitud ${id} ya fue respondida`);
}

export const reasonSchema = z.object({ motivo: optional(text(500)) });
