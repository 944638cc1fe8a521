import { z } from "zod";
import type { Prisma } from "../../db/client.js";
import { containsIgnoringCase } from "../../db/search.js";
import { authorize, type Actor } from "../actor.js";
import { byColumn, orderOf, pageFields, pageOf, searchedId, sortFields, type Sorting } from "../admin/paging.js";
import type { Deps } from "../deps.js";
import { ValidationError } from "../errors.js";
import { isoDate, oneOf, optional, parseInput, positiveId, text, type Raw } from "../validation.js";
import { TRIP_RULES } from "./access.js";
import { SERVICE_TYPES } from "./service-types.js";
import { TRIP_STATES } from "./states.js";

const TRIP_SORTS = ["fecha_solicitud", "id", "precio_estimado", "distancia_km"] as const;

export const TRIP_SORTING: Sorting<(typeof TRIP_SORTS)[number], Prisma.TripOrderByWithRelationInput> = {
  columns: {
    fecha_solicitud: byColumn("fecha_solicitud"),
    id: byColumn("id"),
    precio_estimado: byColumn("precio_estimado"),
    distancia_km: byColumn("distancia_km"),
  },
  sort: "fecha_solicitud",
  order: "desc",
};

const searchSchema = z.object({
  ...pageFields,
  ...sortFields(TRIP_SORTS),
  estados: optional(z.array(oneOf(TRIP_STATES)).max(TRIP_STATES.length)),
  tipo_servicio: optional(oneOf(SERVICE_TYPES)),
  pasajero_id: optional(positiveId()),
  conductor_id: optional(positiveId()),
  empresa_id: optional(positiveId()),
  desde: optional(isoDate()),
  hasta: optional(isoDate({ endOfDay: true })),
  search: optional(text(200)),
});

/**
 * Every trip, for administrators: filtered by state, service, who rode or drove it, the company
 * of its driver and the day it was requested (Bogotá), searched by id or address, sorted, by pages.
 */
export async function searchTrips(
  deps: Deps,
  actor: Actor,
  input: Raw<typeof searchSchema>,
  selection: { include?: Prisma.TripInclude } = {},
) {
  authorize(actor, TRIP_RULES.search);
  const { estados, tipo_servicio, pasajero_id, conductor_id, empresa_id, desde, hasta, search, sort, order, ...pageInput } = parseInput(
    searchSchema,
    input,
  );
  if (desde && hasta && desde > hasta) throw new ValidationError("debe ser posterior o igual a 'desde'", "hasta");
  const { skip, take, pagination } = pageOf(pageInput);
  // Digits alone are a trip's number, as an operator reads it off a complaint or a receipt.
  const id = search === undefined ? null : searchedId(search);
  const like = search && id === null ? containsIgnoringCase(deps.provider, search) : undefined;
  const where: Prisma.TripWhereInput = {
    ...(estados?.length ? { estado: { in: estados } } : {}),
    ...(tipo_servicio ? { tipo_servicio } : {}),
    ...(pasajero_id ? { usuario_id: pasajero_id } : {}),
    ...(conductor_id ? { conductor_id } : {}),
    ...(empresa_id ? { conductor: { empresa_id } } : {}),
    ...(desde || hasta ? { fecha_solicitud: { ...(desde ? { gte: desde } : {}), ...(hasta ? { lte: hasta } : {}) } } : {}),
    ...(id !== null ? { id } : like ? { OR: [{ origen_direccion: like }, { destino_direccion: like }] } : {}),
  };
  const [total, items] = await Promise.all([
    deps.db.trip.count({ where }),
    deps.db.trip.findMany({
      ...selection,
      where,
      orderBy: orderOf(TRIP_SORTING, { sort, order }),
      skip,
      take,
    }),
  ]);
  return { items, pagination: pagination(total) };
}
