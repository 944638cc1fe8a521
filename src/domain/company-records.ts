import type { Company } from "../db/models.js";
import type { Deps } from "./deps.js";
import { ConflictError, NotFoundError } from "./errors.js";
import { email, fieldParser, optional, phone, positiveId, text } from "./validation.js";

/** pendiente: signed itself up and waits for review; rechazada: refused at review. */
export const COMPANY_STATES = ["pendiente", "activa", "rechazada", "suspendida", "inactiva"] as const;
export type CompanyState = (typeof COMPANY_STATES)[number];

/** A NIT is digits with an optional check digit after a dash: "900123456-7". */
const nit = () =>
  text(20)
    .transform((value) => value.replace(/[\s.]/g, ""))
    .refine((value) => /^\d{6,12}(-\d)?$/.test(value), "no es un NIT válido (por ejemplo 900123456-7)");

/** A company's own data, as administrators and a company signing up give it. */
export const companyFields = {
  nombre: text(200),
  nit: nit(),
  email: optional(email()),
  telefono: optional(phone()),
  direccion: optional(text(300)),
};

export const nitTaken = (value: string) => new ConflictError(`Ya existe una empresa con el NIT ${value}`);

const parseCompanyId = fieldParser("id", positiveId());

export async function getCompany(deps: Pick<Deps, "db">, id: unknown): Promise<Company> {
  const companyId = parseCompanyId(id);
  const company = await deps.db.company.findUnique({ where: { id: companyId } });
  if (!company) throw new NotFoundError(`No existe una empresa con id ${companyId}`);
  return company;
}

/** A company's accounts that run it: active accounts of type empresa carrying its id. */
export const managersOf = (empresaId: number) => ({ empresa_id: empresaId, tipo_usuario: "empresa", es_activo: true, eliminado_en: null });

/** A company's drivers: driver accounts carrying its id, not deleted. */
export const driversOf = (empresaId: number) => ({ empresa_id: empresaId, tipo_usuario: "conductor", eliminado_en: null });
