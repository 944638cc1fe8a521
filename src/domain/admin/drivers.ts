import { z } from "zod";
import type { Prisma } from "../../db/client.js";
import { authorize, type Actor } from "../actor.js";
import type { Deps } from "../deps.js";
import { DRIVER_RULES } from "../drivers/access.js";
import { REVIEW_STATES } from "../drivers/approval.js";
import { byPresence, DRIVER_SORTING, DRIVER_SORTS, searchingDrivers } from "../drivers/filters.js";
import { withExpiredDocuments } from "../drivers/readiness.js";
import { VEHICLE_TYPES } from "../service-types.js";
import { oneOf, optional, parseInput, positiveId, text, type Raw } from "../validation.js";
import { orderOf, pageFields, pageOf, sortFields } from "../paging.js";

const listSchema = z.object({
  ...pageFields,
  ...sortFields(DRIVER_SORTS),
  search: optional(text(100)),
  estado_revision: optional(oneOf(REVIEW_STATES)),
  tipo_vehiculo: optional(oneOf(VEHICLE_TYPES)),
  en_linea: optional(z.boolean()),
  empresa_id: optional(positiveId()),
  documentos_vencidos: optional(z.boolean()),
});

/**
 * Drivers page by page: by review state, vehicle type, company, whether they are online now and
 * whether a document has expired, searched by name, e-mail, phone or plate, and sorted (oldest
 * application first by default), with the counts an administrator's review screen shows.
 */
export async function listDrivers(deps: Deps, actor: Actor, input: Raw<typeof listSchema>) {
  authorize(actor, DRIVER_RULES.pending);
  const { search, estado_revision, tipo_vehiculo, en_linea, empresa_id, documentos_vencidos, sort, order, ...pageInput } = parseInput(
    listSchema,
    input,
  );
  const { skip, take, pagination } = pageOf(pageInput);
  const now = deps.clock.now();
  const drivers = { conductor: { tipo_usuario: "conductor" } };
  const where: Prisma.DriverProfileWhereInput = {
    AND: [
      drivers,
      ...(estado_revision ? [{ estado_revision }] : []),
      ...(tipo_vehiculo ? [{ vehiculo: { tipo: tipo_vehiculo } }] : []),
      ...(empresa_id ? [{ conductor: { empresa_id } }] : []),
      ...(en_linea === undefined ? [] : [byPresence(deps, () => true, en_linea)]),
      ...(documentos_vencidos === undefined ? [] : [documentos_vencidos ? withExpiredDocuments(now) : { NOT: withExpiredDocuments(now) }]),
      ...(search ? [searchingDrivers(deps, search)] : []),
    ],
  };
  const count = (extra: object) => deps.db.driverProfile.count({ where: { ...drivers, ...extra } });
  const [total, items, total_conductores, pendientes_verificacion, aprobados, con_documentos_vencidos] = await Promise.all([
    deps.db.driverProfile.count({ where }),
    deps.db.driverProfile.findMany({ where, orderBy: orderOf(DRIVER_SORTING, { sort, order }), skip, take }),
    count({}),
    count({ estado_revision: "en_revision" }),
    count({ aprobado: true }),
    count(withExpiredDocuments(now)),
  ]);
  return {
    items,
    pagination: pagination(total),
    estadisticas: { total_conductores, pendientes_verificacion, aprobados, con_documentos_vencidos },
  };
}
