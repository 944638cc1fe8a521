import { z } from "zod";
import { isUniqueViolation, type Prisma } from "../../db/client.js";
import { containsIgnoringCase } from "../../db/search.js";
import { authorize, type Actor } from "../actor.js";
import { ADMIN_RULES } from "../admin/access.js";
import { audit } from "../admin/audit.js";
import { byColumn, orderOf, pageFields, pageOf, sortFields, type Sorting } from "../admin/paging.js";
import type { Deps } from "../deps.js";
import { ConflictError, NotFoundError } from "../errors.js";
import { email, oneOf, optional, parseInput, phone, positiveId, text, type Raw, fieldParser } from "../validation.js";

const parseCompanyId = fieldParser("id", positiveId());

export const COMPANY_STATES = ["activa", "inactiva"] as const;

/** A NIT is digits with an optional check digit after a dash: "900123456-7". */
const nit = () =>
  text(20)
    .transform((value) => value.replace(/[\s.]/g, ""))
    .refine((value) => /^\d{6,12}(-\d)?$/.test(value), "no es un NIT válido (por ejemplo 900123456-7)");

const fields = {
  nombre: text(200),
  nit: nit(),
  email: optional(email()),
  telefono: optional(phone()),
  direccion: optional(text(300)),
  estado: optional(oneOf(COMPANY_STATES)),
};
const createSchema = z.object(fields);
const updateSchema = z.object({ ...fields, nombre: optional(fields.nombre), nit: optional(fields.nit) });

const nitTaken = (value: string) => new ConflictError(`Ya existe una empresa con el NIT ${value}`);

async function getCompany(deps: Deps, id: unknown) {
  const companyId = parseCompanyId(id);
  const company = await deps.db.company.findUnique({ where: { id: companyId } });
  if (!company) throw new NotFoundError(`No existe una empresa con id ${companyId}`);
  return company;
}

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
  authorize(actor, ADMIN_RULES.companies);
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
  authorize(actor, ADMIN_RULES.companies);
  return getCompany(deps, id);
}

export async function createCompany(deps: Deps, actor: Actor, input: Raw<typeof createSchema>) {
  authorize(actor, ADMIN_RULES.companies);
  const data = parseInput(createSchema, input);
  try {
    return await deps.db.$transaction(async (tx) => {
      const company = await tx.company.create({ data });
      await audit(tx, deps, actor, { accion: "crear_empresa", objetivo_tipo: "empresa", objetivo_id: company.id, detalles: data });
      return company;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw nitTaken(data.nit);
    throw error;
  }
}

/** Changes only the fields sent. */
export async function updateCompany(deps: Deps, actor: Actor, id: unknown, input: Raw<typeof updateSchema>) {
  authorize(actor, ADMIN_RULES.companies);
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
  authorize(actor, ADMIN_RULES.companies);
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
