import { z } from "zod";
import { authorize, isMember, type Actor } from "../actor.js";
import { audit } from "../audit/audit.js";
import type { Deps } from "../deps.js";
import { number, parseInput } from "../validation.js";
import { COMPANY_RULES } from "../company-scope.js";
import { getCompany } from "../company-records.js";

/*
 * A company is paid a share of the platform's commission on its drivers' trips. A trip is done
 * for the company its driver belongs to when they accept it, at that company's share in force when
 * the trip was requested: a change of share, or of company, later on does not move it.
 */

const shareSchema = z.object({
  porcentaje: number()
    .min(0, "debe estar entre 0 y 100")
    .max(100, "debe estar entre 0 y 100")
    .refine((value) => Math.abs(value * 100 - Math.round(value * 100)) < 1e-6, "admite como máximo dos decimales"),
});

/** Administrators set a company's share; each change is kept with the moment it takes effect, and audited. */
export async function setCompanyShare(deps: Deps, actor: Actor, id: unknown, input: { porcentaje: unknown }) {
  authorize(actor, COMPANY_RULES.administer);
  const company = await getCompany(deps, id);
  const { porcentaje } = parseInput(shareSchema, input);
  const now = deps.clock.now();
  return deps.db.$transaction(async (tx) => {
    await tx.companyShareChange.create({
      data: { empresa_id: company.id, porcentaje, desde: now, admin_id: isMember(actor) ? actor.id : null },
    });
    await audit(tx, deps, actor, {
      accion: "porcentaje_empresa",
      objetivo_tipo: "empresa",
      objetivo_id: company.id,
      detalles: { antes: company.porcentaje_comision, porcentaje },
    });
    return tx.company.update({ where: { id: company.id }, data: { porcentaje_comision: porcentaje } });
  });
}
