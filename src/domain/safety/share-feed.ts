import type { Deps } from "../deps.js";
import type { DriverPositionEvent } from "../events.js";
import { findShare, isShowing, showsUntil, withStops, type SharedLink, type ShownLink } from "./share-links.js";
import { sharedTrip, type SharedTrip } from "./shared-trip.js";
import { shownTrip } from "./share-viewing.js";

/** What a page following a link hears: the trip as it may be shown, or that the link shows it no more. */
export type ShareUpdate = { tipo: "viaje"; viaje: SharedTrip } | { tipo: "terminado" };

const ENDED: ShareUpdate = { tipo: "terminado" };

type Heard =
  | { from: "viaje" | "revocado"; step: IteratorResult<unknown> }
  | { from: "posicion"; step: IteratorResult<DriverPositionEvent> }
  | { from: "vence" | "fin" };

/**
 * Follows a link while it shows its trip, on whichever process the trip's changes and its
 * driver's positions happen (events cross processes): the trip first, then again on every change
 * of the trip and every position of its driver, and `terminado` once the link shows it no more
 * (revoked, or 30 minutes after the trip ended), which ends the feed. It ends sooner when `until`
 * aborts: the page left.
 */
export async function* followShare(deps: Deps, token: string, opened: SharedLink, until: AbortSignal): AsyncGenerator<ShareUpdate> {
  const trips = deps.events.subscribe("viaje", opened.viaje_id);
  const positions = deps.events.subscribe("ubicacion_viaje", opened.viaje_id);
  const revocations = deps.events.subscribe("enlace_revocado", opened.id);
  const listen = {
    viaje: () => trips.next().then((step): Heard => ({ from: "viaje", step })),
    posicion: () => positions.next().then((step): Heard => ({ from: "posicion", step })),
    revocado: () => revocations.next().then((step): Heard => ({ from: "revocado", step })),
  };
  // Listening before the link is read again, so that nothing that happens in between is missed.
  const waiting = { viaje: listen.viaje(), posicion: listen.posicion(), revocado: listen.revocado() };
  let stop: () => void = () => undefined;
  const left = new Promise<Heard>((resolve) => {
    stop = () => resolve({ from: "fin" });
    if (until.aborted) stop();
    else until.addEventListener("abort", stop, { once: true });
  });
  let timer: ReturnType<typeof setTimeout> | undefined;
  let expired = new Promise<Heard>(() => undefined);
  /** The link stops showing a trip that ended by itself, with no event to say so. */
  const expireWith = (link: SharedLink) => {
    const at = showsUntil(link);
    if (!at || timer) return;
    expired = new Promise((resolve) => {
      timer = setTimeout(() => resolve({ from: "vence" }), Math.max(0, at.getTime() - deps.clock.now().getTime()));
    });
  };

  /** The link read again, with its trip's stops while it shows the trip; null once it does not. */
  const reread = async (): Promise<ShownLink | null> => {
    const found = await findShare(deps.reads, token);
    return found && isShowing(found, deps.clock.now()) ? withStops(deps.reads, found) : null;
  };

  try {
    let link = await reread();
    if (!link) {
      yield ENDED;
      return;
    }
    let trip = shownTrip(deps, link);
    expireWith(link);
    yield { tipo: "viaje", viaje: trip };
    for (;;) {
      const heard = await Promise.race([waiting.viaje, waiting.posicion, waiting.revocado, expired, left]);
      // A source that ends is this process stopping: the page's connection goes with it.
      if (heard.from === "fin" || ("step" in heard && heard.step.done)) return;
      if (heard.from === "vence" || heard.from === "revocado") {
        yield ENDED;
        return;
      }
      if (heard.from === "posicion") {
        waiting.posicion = listen.posicion();
        const { latitud, longitud, at } = heard.step.value as DriverPositionEvent;
        trip = sharedTrip(link, { latitud, longitud, en: at }, deps.clock.now());
      } else {
        waiting.viaje = listen.viaje();
        // A change of state may bring a driver and a vehicle, a stop left behind: the link is read again.
        link = await reread();
        if (!link) {
          yield ENDED;
          return;
        }
        trip = shownTrip(deps, link);
        expireWith(link);
      }
      yield { tipo: "viaje", viaje: trip };
    }
  } finally {
    clearTimeout(timer);
    until.removeEventListener("abort", stop);
    for (const pending of Object.values(waiting)) pending.catch(() => undefined);
    await Promise.all([trips.return?.(), positions.return?.(), revocations.return?.()]);
  }
}
