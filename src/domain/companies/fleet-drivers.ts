import { z } from "zod";
import type { Prisma } from "../../db/client.js";
import type { Actor } from "../actor.js";
import { DRIVER_SORTING, DRIVER_SORTS } from "../drivers/filters.js";
import { orderOf, pageFields, pageOf, sortFields, type Sorting } from "../paging.js";
import type { Deps } from "../deps.js";
import { REVIEW_STATES } from "../drivers/approval.js";
import { byPresence, searchingDrivers } from "../drivers/filters.js";
import { documentsDueBy, withDocumentsExpiring, withExpiredDocuments } from "../drivers/readiness.js";
import type { Presence } from "../presence/presence.js";
import { balancesOf } from "../money/ledger.js";
import { percent } from "../numbers.js";
import { VEHICLE_TYPES } from "../service-types.js";
import { ASSIGNED_STATES } from "../trip-states.js";
import { oneOf, optional, parseInput, text, type Raw } from "../validation.js";
import { companyInScope } from "../company-scope.js";
import { driversOf } from "../company-records.js";

/** A company is told about a document this many days before it expires. */
export const EXPIRY_NOTICE_DAYS = 30;
const DAY_MS = 24 * 3600 * 1000;

/** Where a driver is now: connected and free (or kept from trips by a document), on a trip, or not connected. */
export const CONNECTION_STATES = ["en_linea", "en_viaje", "desconectado"] as const;
type Connection = (typeof CONNECTION_STATES)[number];

const connectionOf = (presence: Presence | undefined): Connection =>
  !presence ? "desconectado" : presence.viaje_activo_id !== null ? "en_viaje" : "en_linea";

const CONNECTED: Record<Connection, (deps: Deps) => Prisma.DriverProfileWhereInput> = {
  en_linea: (deps) => byPresence(deps, (driver) => driver.viaje_activo_id === null, true),
  en_viaje: (deps) => byPresence(deps, (driver) => driver.viaje_activo_id !== null, true),
  desconectado: (deps) => byPresence(deps, () => true, false),
};

/** The state of a driver's licence, SOAT and technical inspection. */
export const DOCUMENT_STANDINGS = ["vencidos", "por_vencer", "al_dia"] as const;
type DocumentStanding = (typeof DOCUMENT_STANDINGS)[number];

const DOCUMENTS: Record<DocumentStanding, (now: Date, notice: Date) => Prisma.DriverProfileWhereInput> = {
  vencidos: (now) => withExpiredDocuments(now),
  por_vencer: (now, notice) => withDocumentsExpiring(now, notice),
  al_dia: (_now, notice) => ({ NOT: withExpiredDocuments(notice) }),
};

const FLEET_SORTS = [...DRIVER_SORTS, "calificacion"] as const;

/** The administrators' orders of drivers, and by rating; by name unless asked otherwise. */
export const FLEET_SORTING: Sorting<(typeof FLEET_SORTS)[number], Prisma.DriverProfileOrderByWithRelationInput> = {
  columns: { ...DRIVER_SORTING.columns, calificacion: (order) => ({ conductor: { calificacion: order } }) },
  sort: "nombre",
  order: "asc",
};

const listSchema = z.object({
  ...pageFields,
  ...sortFields(FLEET_SORTS),
  search: optional(text(100)),
  estado_revision: optional(oneOf(REVIEW_STATES)),
  tipo_vehiculo: optional(oneOf(VEHICLE_TYPES)),
  conexion: optional(oneOf(CONNECTION_STATES)),
  documentos: optional(oneOf(DOCUMENT_STANDINGS)),
});

/** What a row of the fleet list is made from. */
const FLEET_PROFILE = {
  conductor: { select: { nombre: true, apellido: true, email: true, telefono: true, calificacion: true, total_calificaciones: true } },
  licencia: true,
  vehiculo: true,
} as const;
type FleetProfile = Prisma.DriverProfileGetPayload<{ include: typeof FLEET_PROFILE }>;

/**
 * A company's drivers page by page: by review state, vehicle type, where they are now and the
 * state of their documents, searched by name, e-mail, phone or plate, sorted (by name by
 * default), each with what fleetRows adds.
 */
export async function companyDrivers(deps: Deps, actor: Actor, input: Raw<typeof listSchema> & { empresa_id?: number | null }) {
  const company = await companyInScope(deps, actor, input.empresa_id);
  const { search, estado_revision, tipo_vehiculo, conexion, documentos, sort, order, ...pageInput } = parseInput(listSchema, input);
  const { skip, take, pagination } = pageOf(pageInput);
  const now = deps.clock.now();
  const where: Prisma.DriverProfileWhereInput = {
    AND: [
      { conductor: driversOf(company.id) },
      ...(estado_revision ? [{ estado_revision }] : []),
      ...(tipo_vehiculo ? [{ vehiculo: { tipo: tipo_vehiculo } }] : []),
      ...(conexion ? [CONNECTED[conexion](deps)] : []),
      ...(documentos ? [DOCUMENTS[documentos](now, noticeFrom(now))] : []),
      ...(search ? [searchingDrivers(deps, search)] : []),
    ],
  };
  const [total, profiles] = await Promise.all([
    deps.db.driverProfile.count({ where }),
    deps.db.driverProfile.findMany({ where, include: FLEET_PROFILE, orderBy: orderOf(FLEET_SORTING, { sort, order }), skip, take }),
  ]);
  return { items: await fleetRows(deps, company.id, profiles), pagination: pagination(total) };
}

const noticeFrom = (now: Date) => new Date(now.getTime() + EXPIRY_NOTICE_DAYS * DAY_MS);

/**
 * Each driver as a company sees them: where they are now and their current trip for it, and the
 * driver's own figures as their statistics show them (rating, the share of requests shown to them
 * that they accepted, the share of trips they took that they completed), what they owe the
 * platform (cash fares hold its commission), and the documents that expired or expire within
 * EXPIRY_NOTICE_DAYS. Read for the whole page at once: as many statements for a hundred drivers
 * as for one, each counting from an index without reading the rows.
 */
export async function fleetRows<Profile extends FleetProfile>(deps: Deps, empresaId: number, profiles: Profile[]) {
  const now = deps.clock.now();
  const ids = profiles.map((profile) => profile.conductor_id);
  const [shown, taken, balances, assigned] = await Promise.all([
    deps.db.tripOffer.groupBy({ by: ["conductor_id"], where: { conductor_id: { in: ids } }, _count: { _all: true } }),
    deps.db.trip.groupBy({ by: ["conductor_id", "estado"], where: { conductor_id: { in: ids } }, _count: { _all: true } }),
    balancesOf(deps.db, ids),
    // The company is checked on the rows found: asked for in the query, SQLite would walk the
    // company's every trip rather than these drivers' few.
    deps.db.trip.findMany({
      where: { conductor_id: { in: ids }, estado: { in: [...ASSIGNED_STATES] } },
      select: {
        id: true,
        conductor_id: true,
        empresa_id: true,
        estado: true,
        origen_direccion: true,
        destino_direccion: true,
        fecha_aceptacion: true,
      },
    }),
  ]);
  const count = <Row extends { conductor_id: number | null; _count: { _all: number } }>(
    rows: Row[],
    id: number,
    pick = (_row: Row) => true,
  ) => rows.filter((row) => row.conductor_id === id && pick(row)).reduce((sum, row) => sum + row._count._all, 0);
  const notice = noticeFrom(now);
  return profiles.map((profile) => {
    const id = profile.conductor_id;
    const saldo = balances.get(id) ?? 0;
    return {
      profile,
      conexion: connectionOf(deps.matching.presence.get(id)),
      viaje_actual: assigned.find((trip) => trip.conductor_id === id && trip.empresa_id === empresaId) ?? null,
      calificacion: profile.conductor.calificacion,
      total_calificaciones: profile.conductor.total_calificaciones,
      // Accepting a trip marks its offer accepted and gives the driver the trip in one transaction:
      // the accepted offers are the trips taken, counted without reading the offers' rows.
      tasa_aceptacion: percent(count(taken, id), count(shown, id)),
      tasa_completacion: percent(
        count(taken, id, (trip) => trip.estado === "completado"),
        count(taken, id),
      ),
      deuda: Math.max(0, -saldo),
      documentos: documentsDueBy(profile, notice).map((document) => ({ ...document, vencido: document.vence <= now })),
    };
  });
}

export type FleetRow = Awaited<ReturnType<typeof fleetRows>>[number];
