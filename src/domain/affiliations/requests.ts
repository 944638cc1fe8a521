import { z } from "zod";
import type { Tx } from "../../db/client.js";
import type { Company } from "../../db/models.js";
import { announceAccountChange } from "../accounts/sessions.js";
import { member, type Actor } from "../actor.js";
import { companyInScope, managersCompany } from "../company-scope.js";
import type { Deps } from "../deps.js";
import { InvalidStateError, NotFoundError, ValidationError } from "../errors.js";
import { tellManagers } from "../notifications/managers.js";
import { deliver, nothingTold, tell, type Told } from "../notifications/tell.js";
import { pageFields, pageOf } from "../paging.js";
import { oneOf, optional, parseInput, positiveId, type Raw } from "../validation.js";
import {
  AFFILIATION_STATES,
  callingDriver,
  DRIVER_FIELDS,
  type Driver,
  moveDriver,
  OPEN,
  parseEmpresaId,
  parseRequestId,
  reasonSchema,
  settle,
} from "./moves.js";

/** A driver asks a company to take them in (solicitada), and the company's managers accept or refuse. */

/** A company a driver may ask to join: one that exists and operates; otherwise a 400 naming empresa_id. */
export async function joinableCompany(deps: Pick<Deps, "db">, empresaId: unknown): Promise<Company> {
  const id = parseEmpresaId(empresaId);
  const company = await deps.db.company.findUnique({ where: { id } });
  if (company?.estado !== "activa") throw new ValidationError(`no corresponde a ninguna empresa activa (${id})`, "empresa_id");
  return company;
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
