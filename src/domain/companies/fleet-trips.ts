import type { Actor } from "../actor.js";
import type { Deps } from "../deps.js";
import type { TripSelection } from "../../db/models.js";
import { companyScope, tripsWithin } from "../trips/search.js";
import { companyInScope } from "../company-scope.js";

type Filters = Parameters<typeof tripsWithin>[2];

/**
 * The trips done for a company (its driver belonged to it on accepting them), for its managers
 * and administrators naming it, with the administrators' filters and sort. Who rode is shown by
 * first name only (firstName): a company never learns a passenger's account.
 */
export async function companyTrips(deps: Deps, actor: Actor, input: Filters & { empresa_id?: number | null }, selection: TripSelection) {
  const company = await companyInScope(deps, actor, input.empresa_id);
  return tripsWithin(deps, companyScope(company.id, input.conductor_id != null), input, selection);
}
