import type { Company } from "../db/models.js";
import { adminOnly, isAdmin, isMember, type Member, member, rule, type Actor } from "./actor.js";
import type { Deps } from "./deps.js";
import { ForbiddenError, ValidationError } from "./errors.js";
import { type CompanyState, driversOf, getCompany } from "./company-records.js";

/**
 * A company's manager is an account of type empresa carrying the company's id, proven by a session
 * token: under LEGACY_AUTH=ids a caller-sent id never makes anyone a manager.
 */
const isManager = (actor: Actor): actor is Member => isMember(actor) && actor.via === "token" && actor.role === "empresa";

/** Who may do what with companies. Signing a company up is public. */
export const COMPANY_RULES = {
  /** Creating, editing, reviewing companies and setting a driver's company directly. */
  administer: adminOnly,
  /** A company's own operations. */
  manage: rule("Esta operación es para los gestores de una empresa, con su sesión iniciada", isManager),
  /** A company's records: its managers, and administrators naming the company. */
  read: rule("Esta consulta es para los gestores de una empresa y los administradores", (actor) => isManager(actor) || isAdmin(actor)),
};

const STANDING: Record<Exclude<CompanyState, "activa">, (company: Company) => string> = {
  pendiente: () => "Tu empresa está en revisión: podrás gestionarla cuando un administrador la apruebe",
  rechazada: (company) => `La solicitud de tu empresa fue rechazada${company.motivo_rechazo ? `: ${company.motivo_rechazo}` : ""}`,
  suspendida: () => "Tu empresa está suspendida: solo puedes consultar su estado",
  inactiva: () => "Tu empresa está inactiva: solo puedes consultar su estado",
};

/** Why a company's managers may not operate now, or null when it operates. */
const companyBlockReason = (company: Company) =>
  company.estado === "activa" ? null : STANDING[company.estado as Exclude<CompanyState, "activa">](company);

/**
 * The company the calling manager runs. Refused unless it operates: only `anyState` reads (its own
 * state) are allowed to a company waiting for review, refused, suspended or inactive.
 */
export async function managersCompany(deps: Pick<Deps, "db">, actor: Actor, options: { anyState?: boolean } = {}): Promise<Company> {
  const { id } = member(actor, COMPANY_RULES.manage);
  const account = await deps.db.user.findUnique({ where: { id }, select: { empresa: true } });
  const company = account?.empresa;
  if (!company) throw new ForbiddenError("Tu cuenta no está ligada a ninguna empresa");
  const blocked = options.anyState ? null : companyBlockReason(company);
  if (blocked) throw new ForbiddenError(blocked);
  return company;
}

/** The company a read is about: the calling manager's own, or the one an administrator names. */
export async function companyInScope(deps: Pick<Deps, "db">, actor: Actor, empresaId?: number | null): Promise<Company> {
  member(actor, COMPANY_RULES.read);
  if (isAdmin(actor)) {
    if (empresaId === undefined || empresaId === null) throw new ValidationError("es obligatorio para administradores", "empresa_id");
    return getCompany(deps, empresaId);
  }
  const company = await managersCompany(deps, actor);
  if (empresaId !== undefined && empresaId !== null && empresaId !== company.id) {
    throw new ForbiddenError("Solo puedes ver los datos de tu propia empresa");
  }
  return company;
}

/**
 * Whether the caller manages the operating company a driver belongs to: its managers follow their
 * drivers (the live map, the fleet's pages), so what those show of a driver is theirs to read.
 */
export async function managesDriver(deps: Pick<Deps, "db">, actor: Actor, conductorId: number): Promise<boolean> {
  if (!isManager(actor)) return false;
  const account = await deps.db.user.findUnique({ where: { id: actor.id }, select: { empresa: { select: { id: true, estado: true } } } });
  const company = account?.empresa;
  if (company?.estado !== "activa") return false;
  return (await deps.db.user.count({ where: { id: conductorId, ...driversOf(company.id) } })) > 0;
}

/** The calling manager's own company, whatever its state: what a company waiting for review may see. */
export const ownCompany = (deps: Pick<Deps, "db">, actor: Actor) => managersCompany(deps, actor, { anyState: true });
