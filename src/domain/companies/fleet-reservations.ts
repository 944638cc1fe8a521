import type { Actor } from "../actor.js";
import { driversOf } from "../company-records.js";
import { companyInScope } from "../company-scope.js";
import type { Deps } from "../deps.js";
import { type ListFilters, reservationsWithin } from "../booking/listing.js";

/**
 * The reservations a company's drivers committed to (its drivers now), for its managers and
 * administrators naming it, as the console lists them. Nothing of the passenger goes with them:
 * the type they are answered in has no passenger.
 */
export async function companyReservations(deps: Deps, actor: Actor, input: ListFilters & { empresa_id?: number | null }) {
  const company = await companyInScope(deps, actor, input.empresa_id);
  const drivers = await deps.db.user.findMany({ where: driversOf(company.id), select: { id: true } });
  return reservationsWithin(deps, { conductor_id: { in: drivers.map((driver) => driver.id) } }, input);
}
