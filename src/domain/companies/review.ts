import { z } from "zod";
import { authorize, type Actor } from "../actor.js";
import { audit } from "../audit/audit.js";
import type { Deps } from "../deps.js";
import { InvalidStateError } from "../errors.js";
import { deliver, nothingTold } from "../notifications/tell.js";
import { parseInput, text } from "../validation.js";
import { COMPANY_RULES } from "../company-scope.js";
import { getCompany } from "../company-records.js";
import { tellManagers } from "../notifications/managers.js";

/** Only a company waiting for review is reviewed; approving an approved company again changes nothing. */
async function pendingCompany(deps: Deps, actor: Actor, id: unknown) {
  authorize(actor, COMPANY_RULES.administer);
  const company = await getCompany(deps, id);
  if (company.estado !== "pendiente" && company.estado !== "activa") {
    throw new InvalidStateError(`La empresa ${company.id} está ${company.estado}: solo se revisa una empresa pendiente`);
  }
  return company;
}

/** Lets a company that signed itself up operate, and tells its managers. */
export async function approveCompany(deps: Deps, actor: Actor, id: unknown) {
  const company = await pendingCompany(deps, actor, id);
  if (company.estado === "activa") return company;
  const told = nothingTold();
  const now = deps.clock.now();
  const approved = await deps.db.$transaction(async (tx) => {
    // Two administrators at once: only one finds it pending, and only that one tells the managers.
    const { count } = await tx.company.updateMany({
      where: { id: company.id, estado: "pendiente" },
      data: { estado: "activa", revisada_en: now, motivo_rechazo: null },
    });
    if (count === 1) {
      await audit(tx, deps, actor, {
        accion: "aprobar_empresa",
        objetivo_tipo: "empresa",
        objetivo_id: company.id,
        detalles: { nombre: company.nombre },
      });
      await tellManagers(tx, deps, told, company, {
        tipo: "empresa_aprobada",
        titulo: "Tu empresa fue aprobada",
        mensaje: `${company.nombre} ya opera en la plataforma: entra a la consola para gestionar tus conductores.`,
      });
    }
    return tx.company.findUniqueOrThrow({ where: { id: company.id } });
  });
  deliver(deps, told);
  return approved;
}

const refusalSchema = z.object({ motivo: text(500) });

/** Refuses a company that signed itself up, with the reason its managers are told. */
export async function refuseCompany(deps: Deps, actor: Actor, id: unknown, input: { motivo: unknown }) {
  const company = await pendingCompany(deps, actor, id);
  const { motivo } = parseInput(refusalSchema, input);
  if (company.estado !== "pendiente") throw new InvalidStateError(`La empresa ${company.id} ya fue aprobada`);
  const told = nothingTold();
  const now = deps.clock.now();
  const refused = await deps.db.$transaction(async (tx) => {
    const { count } = await tx.company.updateMany({
      where: { id: company.id, estado: "pendiente" },
      data: { estado: "rechazada", revisada_en: now, motivo_rechazo: motivo },
    });
    if (count === 0) throw new InvalidStateError(`La empresa ${company.id} ya fue revisada`);
    await audit(tx, deps, actor, { accion: "rechazar_empresa", objetivo_tipo: "empresa", objetivo_id: company.id, detalles: { motivo } });
    await tellManagers(tx, deps, told, company, {
      tipo: "empresa_rechazada",
      titulo: "Tu empresa no fue aprobada",
      mensaje: `Revisamos ${company.nombre} y no pudimos aprobarla. Motivo: ${motivo}`,
      lineas: ["Si crees que es un error, responde a este correo o escríbenos con los datos corregidos."],
    });
    return tx.company.findUniqueOrThrow({ where: { id: company.id } });
  });
  deliver(deps, told);
  return refused;
}
