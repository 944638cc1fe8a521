import { throttle } from "../accounts/throttle.js";
import type { Deps } from "../deps.js";
import { findShare, isShowing, withStops, type ShownLink } from "./share-links.js";
import { driverPosition, sharedTrip, type SharedTrip } from "./shared-trip.js";

/**
 * What a token opens: nothing (no link has it), a link that no longer shows its trip (revoked, or
 * its trip ended more than 30 minutes ago), or a link that shows it.
 */
export type ShareLookup = { kind: "unknown" } | { kind: "ended" } | { kind: "showing"; link: ShownLink };

const UNKNOWN: ShareLookup = { kind: "unknown" };
const ENDED: ShareLookup = { kind: "ended" };

/**
 * Someone opens a link, without an account: counted against their address first, then the same
 * hash and single lookup whatever the token, so that an unknown token takes as long as a revoked
 * or expired one to tell apart from it.
 */
export async function lookUpShare(deps: Deps, token: string, address: string | null): Promise<ShareLookup> {
  await throttle(
    deps.limits.shareRequestsPerAddress,
    address ?? "desconocida",
    "Demasiadas consultas de enlaces de viaje desde tu conexión",
  );
  const link = await findShare(deps.reads, token);
  if (!link) return UNKNOWN;
  return isShowing(link, deps.clock.now()) ? { kind: "showing", link: await withStops(deps.reads, link) } : ENDED;
}

/** The trip a showing link shows now. */
export const shownTrip = (deps: Deps, link: ShownLink): SharedTrip => sharedTrip(link, driverPosition(deps, link), deps.clock.now());
