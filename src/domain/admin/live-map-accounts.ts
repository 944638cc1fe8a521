import type { Deps } from "../deps.js";

interface Account {
  nombre: string;
  empresa_id: number | null;
}

/**
 * The names and companies of the drivers on a live map, read once per driver and kept until their
 * account changes (`forget`), so that a driver's moves cost no query and a driver who changes
 * company leaves that company's map at the next look.
 */
export class DriverAccounts {
  readonly #deps: Pick<Deps, "db">;
  readonly #known = new Map<number, Account>();
  /** Drivers whose account changed while a read was under way: what it read of them may be from before. */
  readonly #stale = new Set<number>();
  #reading = false;

  constructor(deps: Pick<Deps, "db">) {
    this.#deps = deps;
  }

  /** Reads, in one query, the accounts of those drivers not known yet or stale. */
  async read(ids: Iterable<number>): Promise<void> {
    const wanted = [...ids].filter((id) => !this.#known.has(id) || this.#stale.has(id));
    if (wanted.length === 0) return;
    for (const id of wanted) this.#stale.delete(id);
    this.#reading = true;
    try {
      const users = await this.#deps.db.user.findMany({
        where: { id: { in: wanted } },
        select: { id: true, nombre: true, apellido: true, empresa_id: true },
      });
      for (const user of users) this.#known.set(user.id, { nombre: `${user.nombre} ${user.apellido}`.trim(), empresa_id: user.empresa_id });
    } finally {
      this.#reading = false;
    }
  }

  name(id: number): string {
    return this.#known.get(id)?.nombre ?? `Conductor ${id}`;
  }

  /** The driver's company, as last read; undefined before it is read. */
  company(id: number): number | null | undefined {
    return this.#known.get(id)?.empresa_id;
  }

  /** The account changed: read it again at the next look. */
  forget(id: number): void {
    this.#known.delete(id);
    if (this.#reading) this.#stale.add(id);
  }
}
