import { z } from "zod";
import { isUniqueViolation, type Prisma } from "../../db/client.js";
import { containsIgnoringCase } from "../../db/search.js";
import { authorize, type Actor } from "../actor.js";
import { audit } from "../audit/audit.js";
import { byColumn, orderOf, pageFields, pageOf, sortFields, type Sorting } from "../paging.js";
import type { Deps } from "../deps.js";
import { oneOf, optional, parseInput, text, type Raw } from "../validation.js";
import { ConflictError } from "../errors.js";
import { COMPANY_RULES } from "../company-scope.js";
import { addManager, managerFields, type ManagerInput } from "./managers.js";
import { COMPANY_STATES, companyFields, getCompany, nitTaken } from "../company-records.js";

/** The states administrators set by editing a company; pendiente and rechazada come only from sign-up and review. */
const SETTABLE_STATES = ["activa", "suspendida", "inactiva"] as const;

const createSchema = z.object({ ...companyFields, estado: optional(oneOf(SETTABLE_STATES)) });
const updateSchema = z.object({
  ...companyFields,
  nombre: optional(companyFields.nombre),
  nit: optional(companyFields.nit),
  estado: optional(oneOf(SETTABLE_STATES)),
});

const COMPANY_SORTS = ["nombre", "id", "nit", "estado", "creado_en"] as const;

export const COMPANY_SORTING: Sorting<(typeof COMPANY_SORTS)[number], Prisma.CompanyOrderByWithRelationInput> = {
  columns: {
    nombre: byColumn("nombre"),
    id: byColumn("id"),
    nit: byColumn("nit"),
    estado: byColumn("estado"),
    creado_en: byColumn("creado_en"),
  },
  sort: "nombre",
  order: "asc",
};

const listSchema = z.object({
  ...pageFields,
  ...sortFields(COMPANY_SORTS),
  search: optional(text(100)),
  estado: optional(oneOf(COMPANY_STATES)),
});

/** Companies page by page, by state, searched by name, NIT, e-mail or phone, and sorted (by name by default). */
export async function listCompanies(deps: Deps, actor: Actor, input: Raw<typeof listSchema>) {
  authorize(actor, COMPANY_RULES.administer);
  const { search, estado, sort, order, ...pageInput } = parseInput(listSchema, input);
  const { skip, take, pagination } = pageOf(pageInput);
  const like = search ? containsIgnoringCase(deps.provider, search) : undefined;
  const where = {
    ...(estado ? { estado } : {}),
    ...(like ? { OR: [{ nombre: like }, { nit: like }, { email: like }, { telefono: like }] } : {}),
  };
  const [total, items] = await Promise.all([
    deps.db.company.count({ where }),
    deps.db.company.findMany({ where, orderBy: orderOf(COMPANY_SORTING, { sort, order }), skip, take }),
  ]);
  return { items, pagination: pagination(total) };
}

export async function findCompany(deps: Deps, actor: Actor, id: unknown) {
  authorize(actor, COMPANY_RULES.administer);
  return getCompany(deps, id);
}

/**
 * Registers a company (active unless said otherwise) and, when given, its first manager, who gets a
 * mail to choose a password.
 */
export async function createCompany(deps: Deps, actor: Actor, input: Raw<typeof createSchema> & { gestor?: ManagerInput | null }) {
  authorize(actor, COMPANY_RULES.administer);
  const { gestor, ...fields } = input;
  const data = parseInput(createSchema, fields);
  const manager = gestor ? parseInput(z.object({ gestor: managerFields }), { gestor }).gestor : null;
  try {
    const { company, mail } = await deps.db.$transaction(async (tx) => {
      const company = await tx.company.create({ data });
      const mail = manager ? (await addManager(tx, deps, company, manager)).mail : null;
      await audit(tx, deps, actor, {
        accion: "crear_empresa",
        objetivo_tipo: "empresa",
        objetivo_id: company.id,
        detalles: { ...data, ...(manager ? { gestor: manager.email } : {}) },
      });
      return { company, mail };
    });
    if (mail) deps.onMailQueued(mail);
    return company;
  } catch (error) {
    if (isUniqueViolation(error)) {
      if (manager && (await deps.db.user.count({ where: { email: manager.email } })) > 0) {
        throw new ConflictError(`Ya existe una cuenta con el correo ${manager.email}`);
      }
      throw nitTaken(data.nit);
    }
    throw error;
  }
}

/** Changes only the fields sent. */
export async function updateCompany(deps: Deps, actor: Actor, id: unknown, input: Raw<typeof updateSchema>) {
  authorize(actor, COMPANY_RULES.administer);
  const company = await getCompany(deps, id);
  const data = parseInput(updateSchema, input);
  try {
    return await deps.db.$transaction(async (tx) => {
      const updated = await tx.company.update({ where: { id: company.id }, data });
      await audit(tx, deps, actor, { accion: "actualizar_empresa", objetivo_tipo: "empresa", objetivo_id: company.id, detalles: data });
      return updated;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw nitTaken(data.nit!);
    throw error;
  }
}

/** Deletes a company; its drivers stay, no longer affiliated. */
export async function deleteCompany(deps: Deps, actor: Actor, id: unknown) {
  authorize(actor, COMPANY_RULES.administer);
  const company = await getCompany(deps, id);
  await deps.db.$transaction(async (tx) => {
    await tx.company.delete({ where: { id: company.id } });
    await audit(tx, deps, actor, {
      accion: "eliminar_empresa",
      objetivo_tipo: "empresa",
      objetivo_id: company.id,
      detalles: { nombre: company.nombre, nit: company.nit },
    });
  });
  return company;
}
