import { useSyncExternalStore } from "react";
import type { TipoUsuario } from "../gql/graphql";

/** Who uses the console: administrators, and the managers of a company (accounts of type empresa). */
export type Role = Extract<TipoUsuario, "admin" | "empresa">;

export const isRole = (type: TipoUsuario): type is Role => type === "admin" || type === "empresa";

/** The signed-in operator, as the console keeps it. */
export interface Session {
  token: string;
  /** What the operator sees: the administrators' sections or their company's. */
  rol: Role;
  nombre: string;
  email: string;
  /** The name of the company a manager runs; null for administrators. */
  empresa: string | null;
}

// sessionStorage: a reload keeps the operator signed in, closing the tab forgets the token, and no
// other tab or later visit can read it (never localStorage or cookies).
const KEY = "consola.sesion";

function read(): Session | null {
  try {
    const saved = sessionStorage.getItem(KEY);
    const parsed = saved ? (JSON.parse(saved) as Session) : null;
    // A session kept without its role (saved by an earlier console) signs in again.
    return parsed && isRole(parsed.rol) ? parsed : null;
  } catch {
    return null;
  }
}

let current = read();
/** Why the last session ended without the operator asking, shown on the sign-in page. */
let endedBecause: string | null = null;
const listeners = new Set<() => void>();

function publish(next: Session | null) {
  current = next;
  if (next) sessionStorage.setItem(KEY, JSON.stringify(next));
  else sessionStorage.removeItem(KEY);
  for (const listener of listeners) listener();
}

export const session = {
  get: () => current,
  token: () => current?.token ?? null,
  start(next: Session) {
    endedBecause = null;
    publish(next);
  },
  end(reason: string | null = null) {
    endedBecause = reason;
    publish(null);
  },
  /** The reason the previous session was ended for the operator, read once. */
  takeEndReason() {
    const reason = endedBecause;
    endedBecause = null;
    return reason;
  },
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};

export const useSession = () => useSyncExternalStore(session.subscribe, session.get);
