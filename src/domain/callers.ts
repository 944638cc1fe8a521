import type { User } from "../db/models.js";

/** The account fields that decide who a caller is and what they may do. */
export type Standing = Pick<User, "id" | "tipo_usuario" | "es_activo" | "fecha_suspension" | "motivo_suspension">;

export interface KnownSession {
  id: number;
  expira_en: Date;
  usuario: Standing;
}

// Many times a phone's ping interval (10 s), so a driver's pings find them; the bound on how long
// a change could go unnoticed should its announcement be lost.
const REMEMBER_MS = 5 * 60_000;
const MOST = 100_000;

/**
 * Who recent callers are, by user id and by session token, so that a call need not read the
 * account it comes from. Forgotten the moment the account or session changes, on every process
 * (the account changes announce it), and after five minutes in any case.
 */
export class CallerCache {
  #users = new Map<number, { user: Standing; until: number }>();
  #sessions = new Map<string, { session: KnownSession; until: number }>();
  /**
   * Bumped by every change: a lookup that started before one does not remember what it read,
   * which may predate the change.
   */
  #changes = 0;

  get changes(): number {
    return this.#changes;
  }

  user(id: number, now: Date): Standing | undefined {
    return fresh(this.#users, id, now)?.user;
  }

  session(tokenHash: string, now: Date): KnownSession | undefined {
    return fresh(this.#sessions, tokenHash, now)?.session;
  }

  /** Keeps what a lookup read, unless something changed since it started (`changesBefore`). */
  rememberUser(user: Standing, now: Date, changesBefore: number): void {
    if (changesBefore === this.#changes) keep(this.#users, user.id, { user, until: now.getTime() + REMEMBER_MS });
  }

  rememberSession(tokenHash: string, session: KnownSession, now: Date, changesBefore: number): void {
    if (changesBefore === this.#changes) keep(this.#sessions, tokenHash, { session, until: now.getTime() + REMEMBER_MS });
  }

  /** A user changed: their account and every session of theirs are read again. */
  forgetUser(id: number): void {
    this.#changes++;
    this.#users.delete(id);
    for (const [hash, { session }] of this.#sessions) if (session.usuario.id === id) this.#sessions.delete(hash);
  }

  forgetSessions(ids: number[]): void {
    this.#changes++;
    const gone = new Set(ids);
    for (const [hash, { session }] of this.#sessions) if (gone.has(session.id)) this.#sessions.delete(hash);
  }

  /** Everyone is read again: after announcements of changes may have been lost (Redis away). */
  clear(): void {
    this.#changes++;
    this.#users.clear();
    this.#sessions.clear();
  }
}

function fresh<K, V extends { until: number }>(entries: Map<K, V>, key: K, now: Date): V | undefined {
  const entry = entries.get(key);
  if (entry && entry.until <= now.getTime()) entries.delete(key);
  return entry && entry.until > now.getTime() ? entry : undefined;
}

function keep<K, V>(entries: Map<K, V>, key: K, value: V): void {
  entries.delete(key);
  entries.set(key, value);
  // The oldest entry goes first: Maps iterate in insertion order.
  if (entries.size > MOST) entries.delete(entries.keys().next().value!);
}
