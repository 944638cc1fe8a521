import type { TripSelection } from "../../db/models.js";
import { z } from "zod";
import type { Prisma } from "../../db/client.js";
import { containsIgnoringCase } from "../../db/search.js";
import { authorize, type Actor } from "../actor.js";
import { byColumn, orderOf, pageFields, pageOf, searchedId, sortFields, type Sorting } from "../paging.js";
import type { Deps } from "../deps.js";
import { ValidationError } from "../errors.js";
import { isoDate, oneOf, optional, parseInput, positiveId, text, type Raw } from "../validation.js";
import { TRIP_RULES } from "./access.js";
import { SERVICE_TYPES } from "../service-types.js";
import { TRIP_STATES } from "../trip-states.js";

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

/** What any list of trips filters by, sorts by and pages with. */
const filtersSchema = z.object({
  ...pageFields,
  ...sortFields(TRIP_SORTS),
  estados: optional(z.array(oneOf(TRIP_STATES)).max(TRIP_STATES.length)),
  tipo_servicio: optional(oneOf(SERVICE_TYPES)),
  conductor_id: optional(positiveId()),
  desde: optional(isoDate()),
  hasta: optional(isoDate({ endOfDay: true })),
  search: optional(text(200)),
});

/** Whose trips administrators may narrow the list to, besides the driver. */
const partiesSchema = z.object({ pasajero_id: optional(positiveId()), empresa_id: optional(positiveId()) });

/**
 * The trips done for a company (`viajes.empresa_id`: its driver's company when accepting them, kept
 * whatever the driver does later), to be narrowed to one driver's or not. Narrowed, the company is
 * matched as a range: SQLite keeps no statistics of these tables, and given the company's id alone
 * it takes the company's index and walks every trip of the company rather than the driver's few.
 */
export const companyScope = (empresaId: number, oneDriver: boolean): Prisma.TripWhereInput =>
  oneDriver ? { empresa_id: { gte: empresaId, lte: empresaId } } : { empresa_id: empresaId };

/**
 * Every trip, for administrators: filtered by state, service, who rode or drove it, the company it
 * was done for and the day it was requested (Bogotá), searched by id or address, sorted, by pages.
 */
export async function searchTrips(
  deps: Deps,
  actor: Actor,
  input: Raw<typeof filtersSchema> & Raw<typeof partiesSchema>,
  selection: TripSelection = {},
) {
  authorize(actor, TRIP_RULES.search);
  const { pasajero_id, empresa_id } = parseInput(partiesSchema, input);
  const scope: Prisma.TripWhereInput = {
    ...(pasajero_id ? { usuario_id: pasajero_id } : {}),
    ...(empresa_id ? companyScope(empresa_id, input.conductor_id != null) : {}),
  };
  return tripsWithin(deps, scope, input, selection);
}

/**
 * The trips `scope` picks, for a caller already allowed to see them all: filtered by state,
 * service, driver and the day they were requested (Bogotá), searched by id or address, sorted,
 * a page of them and how many match.
 */
export async function tripsWithin(deps: Deps, scope: Prisma.TripWhereInput, input: Raw<typeof filtersSchema>, selection: TripSelection) {
  const { estados, tipo_servicio, conductor_id, desde, hasta, search, sort, order, ...pageInput } = parseInput(filtersSchema, input);
  if (desde && hasta && desde > hasta) throw new ValidationError("debe ser posterior o igual a 'desde'", "hasta");
  const { skip, take, pagination } = pageOf(pageInput);
  // Digits alone are a trip's number, as an operator reads it off a complaint or a receipt.
  const id = search === undefined ? null : searchedId(search);
  const like = search && id === null ? containsIgnoringCase(deps.provider, search) : undefined;
  // The scope stands apart from the filters, so that no filter can widen it.
  const filters: Prisma.TripWhereInput = {
    ...(estados?.length ? { estado: { in: estados } } : {}),
    ...(tipo_servicio ? { tipo_servicio } : {}),
    ...(conductor_id ? { conductor_id } : {}),
    ...(desde || hasta ? { fecha_solicitud: { ...(desde ? { gte: desde } : {}), ...(hasta ? { lte: hasta } : {}) } } : {}),
    ...(id !== null ? { id } : like ? { OR: [{ origen_direccion: like }, { destino_direccion: like }] } : {}),
  };
  const where: Prisma.TripWhereInput = { AND: [scope, filters] };
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
