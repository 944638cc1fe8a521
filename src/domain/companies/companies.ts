import { z } from "zod";
import { isUniqueViolation } from "../../db/client.js";
import { assertAdmin } from "../accounts/access.js";
import type { Deps } from "../deps.js";
import { ConflictError, NotFoundError } from "../errors.js";
import { email, oneOf, optional, parseInput, phone, positiveId, text, type Raw, parseField } from "../validation.js";

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
  const companyId = parseField("id", positiveId(), id);
  const company = await deps.db.company.findUnique({ where: { id: companyId } });
  if (!company) throw new NotFoundError(`No existe una empresa con id ${companyId}`);
  return company;
}

export async function listCompanies(deps: Deps, adminId: number) {
  await assertAdmin(deps.db, adminId);
  return deps.db.company.findMany({ orderBy: { nombre: "asc" } });
}

export async function findCompany(deps: Deps, adminId: number, id: unknown) {
  await assertAdmin(deps.db, adminId);
  return getCompany(deps, id);
}

export async function createCompany(deps: Deps, adminId: number, input: Raw<typeof createSchema>) {
  await assertAdmin(deps.db, adminId);
  const data = parseInput(createSchema, input);
  try {
    return await deps.db.company.create({ data });
  } catch (error) {
    if (isUniqueViolation(error)) throw nitTaken(data.nit);
    throw error;
  }
}

/** Changes only the fields sent. */
export async function updateCompany(deps: Deps, adminId: number, id: unknown, input: Raw<typeof updateSchema>) {
  await assertAdmin(deps.db, adminId);
  const company = await getCompany(deps, id);
  const data = parseInput(updateSchema, input);
  try {
    return await deps.db.company.update({ where: { id: company.id }, data });
  } catch (error) {
    if (isUniqueViolation(error)) throw nitTaken(data.nit!);
    throw error;
  }
}

/** Deletes a company; its drivers stay, no longer affiliated. */
export async function deleteCompany(deps: Deps, adminId: number, id: unknown) {
  await assertAdmin(deps.db, adminId);
  const company = await getCompany(deps, id);
  await deps.db.company.delete({ where: { id: company.id } });
  return company;
}
