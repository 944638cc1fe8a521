import type { Tx } from "../../db/client.js";
import { announceAccountChange } from "../accounts/sessions.js";
import { authorize, isAdmin, isMember, member, type Actor } from "../actor.js";
import { audit } from "../audit/audit.js";
import { COMPANY_RULES, managersCompany } from "../company-scope.js";
import type { Deps } from "../deps.js";
import { ForbiddenError, InvalidStateError, NotFoundError } from "../errors.js";
import { tellManagers } from "../notifications/managers.js";
import { deliver, nothingTold, tell, type Told } from "../notifications/tell.js";
import { parseInput } from "../validation.js";
import { callingDriver, DRIVER_FIELDS, moveDriver, parseDriverId, reasonSchema } from "./moves.js";

/** A driver's company changes without a request: the company lets them go, they leave, or an administrator sets it; and the history of every change. */

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
