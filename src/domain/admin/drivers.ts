import { z } from "zod";
import { authorize, type Actor } from "../actor.js";
import type { Deps } from "../deps.js";
import { DRIVER_RULES } from "../drivers/access.js";
import { REVIEW_STATES } from "../drivers/approval.js";
import { withExpiredDocuments } from "../drivers/readiness.js";
import { oneOf, optional, parseInput, type Raw } from "../validation.js";
import { pageFields, pageOf } from "./paging.js";

const listSchema = z.object({ ...pageFields, estado_revision: optional(oneOf(REVIEW_STATES)) });

/**
 * Drivers page by page, by review state (all of them when none is given), oldest application
 * first, with the counts an administrator's review screen shows.
 */
export async function listDrivers(deps: Deps, actor: Actor, input: Raw<typeof listSchema>) {
  authorize(actor, DRIVER_RULES.pending);
  const { estado_revision, ...pageInput } = parseInput(listSchema, input);
  const { skip, take, pagination } = pageOf(pageInput);
  const drivers = { conductor: { tipo_usuario: "conductor" } };
  const where = { ...drivers, ...(estado_revision ? { estado_revision } : {}) };
  const count = (extra: object) => deps.db.driverProfile.count({ where: { ...drivers, ...extra } });
  const [total, conductores, total_conductores, pendientes_verificacion, aprobados, con_documentos_vencidos] = await Promise.all([
    deps.db.driverProfile.count({ where }),
    deps.db.driverProfile.findMany({ where, orderBy: [{ fecha_solicitud: { sort: "asc", nulls: "last" } }, { id: "asc" }], skip, take }),
    count({}),
    count({ estado_revision: "en_revision" }),
    count({ aprobado: true }),
    count(withExpiredDocuments(deps.clock.now())),
  ]);
  return {
    conductores,
    pagination: pagination(total),
    estadisticas: { total_conductores, pendientes_verificacion, aprobados, con_documentos_vencidos },
  };
}
