import type { Deps } from "../deps.js";
import { SOS_EVERYONE, type SosView, viewsOf } from "./sos-views.js";

/**
 * A listener hears of an incident from its event, from the first read of the open ones and from
 * the sweep below, so the same change may come twice: this lets through only what is newer than
 * what the listener has (a higher version, or the same one now carrying the link to follow the trip).
 */
export function onlyNewer(): (view: SosView) => boolean {
  const seen = new Map<number, { version: number; linked: boolean }>();
  return (view) => {
    const last = seen.get(view.id);
    const linked = view.enlace !== null;
    if (last && (last.version > view.version || (last.version === view.version && (last.linked || !linked)))) return false;
    seen.set(view.id, { version: view.version, linked });
    return true;
  };
}

/**
 * How long after it is written a step may still commit. A sweep reads again the steps of this last
 * while: one committed later is left to its event.
 */
const SETTLE_MS = 10_000;

/**
 * What a process's listeners may have missed: a process killed between an SOS's commit and its
 * announcement, or Redis away while it was announced, leaves it unheard elsewhere. Every sweep reads
 * the steps written since the last one that had settled (by their ids, the primary key), and answers
 * the incidents of those it had not answered yet, as they are now.
 */
export class SosSweep {
  /** Every step with an id up to this one was written over SETTLE_MS before some sweep. */
  #floor: number | null = null;
  #answered = new Set<number>();

  async changes(deps: Pick<Deps, "db" | "clock">): Promise<SosView[]> {
    const settled = new Date(deps.clock.now().getTime() - SETTLE_MS);
    if (this.#floor === null) {
      const last = await deps.db.sosIncidentStep.findFirst({
        where: { creado_en: { lt: settled } },
        orderBy: { id: "desc" },
        select: { id: true },
      });
      this.#floor = last?.id ?? 0;
    }
    const steps = await deps.db.sosIncidentStep.findMany({
      where: { id: { gt: this.#floor } },
      orderBy: { id: "asc" },
      select: { id: true, incidente_id: true, creado_en: true },
    });
    const fresh = steps.filter((step) => !this.#answered.has(step.id));
    for (const step of fresh) this.#answered.add(step.id);
    const floor = Math.max(this.#floor, ...steps.filter((step) => step.creado_en < settled).map((step) => step.id));
    for (const id of this.#answered) if (id <= floor) this.#answered.delete(id);
    this.#floor = floor;
    if (fresh.length === 0) return [];
    const incidents = await deps.db.sosIncident.findMany({ where: { id: { in: [...new Set(fresh.map((step) => step.incidente_id))] } } });
    return viewsOf(deps.db, incidents);
  }
}

/** Tells the operators' consoles, and the managers' of the trip's company, what an SOS is now; once it committed. */
export function announceSos(deps: Pick<Deps, "events">, view: SosView): void {
  deps.events.publish("sos", SOS_EVERYONE, view);
  if (view.empresa_id !== null) deps.events.publish("sos", view.empresa_id, view);
}
