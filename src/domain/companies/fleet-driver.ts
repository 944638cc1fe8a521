import type { Actor } from "../actor.js";
import type { Deps } from "../deps.js";
import { photosOf } from "../drivers/document-history.js";
import { DRIVER_WITH_DOCUMENTS } from "../drivers/readiness.js";
import { NotFoundError } from "../errors.js";
import { periodRange } from "../drivers/earnings.js";
import type { TripSelection } from "../../db/models.js";
import { companyScope, tripsWithin } from "../trips/search.js";
import { fieldParser, positiveId } from "../validation.js";
import { companyInScope } from "../company-scope.js";
import { incomeOf } from "./fleet-figures.js";
import { fleetRows } from "./fleet-drivers.js";
import { driversOf } from "../company-records.js";

const parseDriverId = fieldParser("conductor_id", positiveId());

/** Trips a driver's page shows; the rest are a companyTrips search by the driver away. */
const RECENT_TRIPS = 10;

/**
 * One of a company's drivers, for its managers and administrators naming the company: the fleet
 * list's row, the profile with licence and vehicle, every document photo (as signed links, like the
 * administrators' review screen), and what the driver earned on the company's trips today, this
 * month and in all. Another company's driver, or one with none, is not found.
 */
export async function companyDriver(deps: Deps, actor: Actor, input: { conductor_id: unknown; empresa_id?: number | null }) {
  const company = await companyInScope(deps, actor, input.empresa_id);
  const id = parseDriverId(input.conductor_id);
  const profile = await deps.db.driverProfile.findFirst({
    where: { conductor_id: id, conductor: driversOf(company.id) },
    include: DRIVER_WITH_DOCUMENTS,
  });
  if (!profile) throw new NotFoundError(`${company.nombre} no tiene un conductor con id ${id}`);
  const now = deps.clock.now();
  const scope = { empresa_id: company.id, conductor_id: id };
  const [[row], fotos, hoy, mes, total] = await Promise.all([
    fleetRows(deps, company.id, [profile]),
    photosOf(deps, profile),
    incomeOf(deps.db, scope, periodRange("hoy", now)),
    incomeOf(deps.db, scope, periodRange("mes", now)),
    incomeOf(deps.db, scope, null),
  ]);
  return { ...row!, empresa_id: company.id, fotos, ganancias: { hoy, mes, total } };
}

export type CompanyDriver = Awaited<ReturnType<typeof companyDriver>>;

/** A company's latest trips with one of its drivers, newest first. */
export async function recentTrips(deps: Deps, driver: CompanyDriver, selection: TripSelection) {
  const filters = { conductor_id: driver.profile.conductor_id, per_page: RECENT_TRIPS };
  return (await tripsWithin(deps, companyScope(driver.empresa_id, true), filters, selection)).items;
}
