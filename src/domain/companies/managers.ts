import { z } from "zod";
import { isUniqueViolation, type Tx } from "../../db/client.js";
import type { Company, User } from "../../db/models.js";
import { issuePasswordSetup } from "../accounts/password-setup.js";
import { announceAccountChange, announceRevoked, revokeUserAccess } from "../accounts/sessions.js";
import type { Actor } from "../actor.js";
import type { Deps, OutgoingMail } from "../deps.js";
import { ConflictError, InvalidStateError, NotFoundError } from "../errors.js";
import { email, fieldParser, parseInput, phone, positiveId, text, type Raw } from "../validation.js";
import { companyInScope, managersCompany } from "../company-scope.js";
import { managersOf } from "../company-records.js";

/** A person who will run a company: the account is made for them, with no password until they choose one. */
export const managerFields = z.object({ email: email(), nombre: text(100), apellido: text(100), telefono: phone() });
export type ManagerInput = Raw<typeof managerFields>;

// No password matches it: the account signs in once its manager has chosen one.
const NO_PASSWORD = "!";

const emailTaken = (address: string) => new ConflictError(`Ya existe una cuenta con el correo ${address}`);

/** Creates a manager account of a company inside the caller's transaction, and queues the mail to choose its password. */
export async function addManager(
  tx: Tx,
  deps: Pick<Deps, "clock" | "safety">,
  company: Pick<Company, "id" | "nombre">,
  person: z.output<typeof managerFields>,
): Promise<{ user: User; mail: OutgoingMail }> {
  const user = await tx.user.create({
    data: { ...person, password_hash: NO_PASSWORD, tipo_usuario: "empresa", empresa_id: company.id },
  });
  const mail = await issuePasswordSetup(tx, deps, user, `Te registraron como gestor de ${company.nombre} en la consola de la plataforma.`);
  return { user, mail };
}

/** A company's managers, oldest first: the calling manager's company, or the one an administrator names. */
export async function listManagers(deps: Deps, actor: Actor, empresaId?: number | null) {
  const company = await companyInScope(deps, actor, empresaId);
  return deps.db.user.findMany({ where: managersOf(company.id), orderBy: { id: "asc" } });
}

/** A manager brings another person in: an account of their company, and a mail to choose a password. */
export async function inviteManager(deps: Deps, actor: Actor, input: ManagerInput) {
  const company = await managersCompany(deps, actor);
  const person = parseInput(managerFields, input);
  if ((await deps.db.user.count({ where: { email: person.email } })) > 0) throw emailTaken(person.email);
  try {
    const { user, mail } = await deps.db.$transaction((tx) => addManager(tx, deps, company, person));
    deps.onMailQueued(mail);
    return user;
  } catch (error) {
    if (isUniqueViolation(error)) throw emailTaken(person.email);
    throw error;
  }
}

const parseManagerId = fieldParser("usuario_id", positiveId());

/** Takes a manager off their company and closes their account; the last manager stays. */
export async function removeManager(deps: Deps, actor: Actor, usuarioId: unknown) {
  const company = await managersCompany(deps, actor);
  const id = parseManagerId(usuarioId);
  const now = deps.clock.now();
  const { removed, revoked } = await deps.db.$transaction(async (tx) => {
    // Writing the company's row first makes two removals at once take turns, so both cannot see a second manager.
    await tx.company.update({ where: { id: company.id }, data: { actualizado_en: now } });
    const managers = await tx.user.findMany({ where: managersOf(company.id), select: { id: true } });
    if (!managers.some((manager) => manager.id === id)) throw new NotFoundError(`${company.nombre} no tiene un gestor con id ${id}`);
    if (managers.length === 1) throw new InvalidStateError("Es el único gestor de la empresa: invita a otro antes de quitarlo");
    const removed = await tx.user.update({ where: { id }, data: { es_activo: false, empresa_id: null } });
    return { removed, revoked: await revokeUserAccess(tx, id, now) };
  });
  announceRevoked(deps, revoked);
  announceAccountChange(deps, id);
  return removed;
}
