import { z } from "zod";
import type { Db } from "../../db/client.js";
import { ValidationError } from "../errors.js";
import { companyFields, nitTaken } from "../company-records.js";

/** What a company gives when it signs itself up with its first manager's account. */
export const companySignup = z.object(companyFields, { error: "debe ser un objeto con los datos de la empresa" });

/** The company an account signs up with: required for an account of type empresa, refused for the others. */
export function signingUpCompany<T>(tipoUsuario: string, company: T | undefined): T | null {
  if (tipoUsuario !== "empresa") {
    if (company) throw new ValidationError("solo se envía al registrar una cuenta de tipo empresa", "empresa");
    return null;
  }
  if (!company) throw new ValidationError("es obligatorio para una cuenta de tipo empresa", "empresa.nombre");
  return company;
}

export async function assertNitFree(db: Db, nit: string): Promise<void> {
  if ((await db.company.count({ where: { nit } })) > 0) throw nitTaken(nit);
}
