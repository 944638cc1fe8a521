import { useEffect, useRef, useState } from "react";
import { type LiveStatus, useSubscription } from "../../api/live";
import { ViajesEmpresaEnVivoDocument, ViajesEnVivoDocument } from "../../gql/graphql";
import type { Trip } from "./trip-states";

/** The least time between two reloads of the page that trips it does not show ask for. */
const RELOAD_PAUSE_MS = 5_000;

/** A reload of the list asked for soon, at most once every RELOAD_PAUSE_MS however often it is asked. */
function useReloadSoon(reload: () => void) {
  const lastReload = useRef(0);
  const pending = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(pending.current), []);
  return function reloadSoon() {
    if (pending.current !== undefined) return;
    const wait = Math.max(0, lastReload.current + RELOAD_PAUSE_MS - Date.now());
    pending.current = window.setTimeout(() => {
      pending.current = undefined;
      lastReload.current = Date.now();
      reload();
    }, wait);
  };
}

/**
 * The page's trips kept current from liveOperations: a trip it shows changes in place at once; one
 * it does not (just requested, or changed into the filters) reloads the page, at most every few seconds.
 */
export function useLiveTrips(items: readonly Trip[] | undefined, reload: () => void): { rows: Trip[]; status: LiveStatus } {
  // The changes are kept with the page they apply to: a page loaded after them is newer.
  const [changes, setChanges] = useState({ page: items, trips: new Map<number, Trip>() });
  const changed = changes.page === items ? changes.trips : null;
  const rows = (items ?? []).map((trip) => changed?.get(trip.id) ?? trip);
  const reloadSoon = useReloadSoon(reload);

  const status = useSubscription(ViajesEnVivoDocument, {}, ({ liveOperations: { viajes } }) => {
    if (viajes.length === 0) return;
    const shown = new Set(rows.map((trip) => trip.id));
    setChanges((current) => {
      const trips = new Map(current.page === items ? current.trips : []);
      for (const trip of viajes) if (shown.has(trip.id)) trips.set(trip.id, trip);
      return { page: items, trips };
    });
    if (viajes.some((trip) => !shown.has(trip.id))) reloadSoon();
  });
  return { rows, status };
}

/**
 * A company's trips page kept current: the API sends a manager only the trips done for the company,
 * and without what the list shows of them, so any change reloads the page, at most every few seconds.
 */
export function useCompanyTripChanges(reload: () => void): LiveStatus {
  const reloadSoon = useReloadSoon(reload);
  return useSubscription(ViajesEmpresaEnVivoDocument, {}, ({ liveOperations: { viajes } }) => {
    if (viajes.length > 0) reloadSoon();
  });
}
