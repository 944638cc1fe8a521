import { createHash, randomBytes } from "node:crypto";
import type { Tx } from "../../db/client.js";
import type { User } from "../../db/models.js";
import { member, type Actor, type Member } from "../actor.js";
import type { Deps } from "../deps.js";
import { ACCOUNT_RULES } from "./access.js";
import { distrustDevices } from "./devices.js";
import type { KnownSession } from "../callers.js";
import { accountBlockReason } from "./standing.js";
import type { UserType } from "../user-types.js";

/**
 * Sessions are opaque random tokens of which only the SHA-256 is stored: a leaked database holds
 * no usable token, and revoking one is a row update every process sees on its next lookup.
 */
const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

export interface IssuedToken {
  token: string;
  token_expires_at: Date;
}

/** Opens a session for a user who proved who they are; expired sessions of theirs are cleared. */
export async function openSession(deps: Deps, userId: number, address: string | null): Promise<IssuedToken> {
  const token = randomBytes(32).toString("base64url");
  const now = deps.clock.now();
  const expira_en = new Date(now.getTime() + deps.tokenTtlMs);
  await deps.db.$transaction([
    deps.db.session.deleteMany({ where: { usuario_id: userId, expira_en: { lte: now } } }),
    deps.db.session.create({
      data: { usuario_id: userId, token_hash: hashToken(token), expira_en, creado_en: now, direccion_ip: address },
    }),
  ]);
  return { token, token_expires_at: expira_en };
}

/** The actor a user row stands for. */
export function memberFor(
  user: Pick<User, "id" | "tipo_usuario" | "es_activo" | "fecha_suspension" | "motivo_suspension">,
  fields: Pick<Member, "via" | "session" | "actingAdminId" | "address">,
): Member {
  return {
    kind: "member",
    id: user.id,
    role: user.tipo_usuario as UserType,
    admin: user.tipo_usuario === "admin" && accountBlockReason(user) === null,
    ...fields,
  };
}

const STANDING = { id: true, tipo_usuario: true, es_activo: true, fecha_suspension: true, motivo_suspension: true } as const;

/** The actor for a user id the caller names rather than proves; an id of nobody gives a member without a role. */
export async function memberById(
  deps: Deps,
  id: number,
  fields: Pick<Member, "via" | "session" | "actingAdminId" | "address">,
): Promise<Member> {
  const now = deps.clock.now();
  let user = deps.callers.user(id, now);
  if (!user) {
    const changes = deps.callers.changes;
    // Nobody is not remembered: the id may be registered next.
    const found = await deps.reads.user.findUnique({ where: { id, eliminado_en: null }, select: STANDING });
    if (found) {
      user = found;
      deps.callers.rememberUser(user, now, changes);
    }
  }
  return user ? memberFor(user, fields) : { kind: "member", id, role: null, admin: false, ...fields };
}

const SIGN_IN_AGAIN = "inicia sesión de nuevo";

/** The user a token signs in, or why it does not. */
export async function authenticate(deps: Deps, token: string, address: string | null): Promise<Member | { refused: string }> {
  const session = await findSession(deps, hashToken(token));
  if (!session) return { refused: `La sesión no es válida o ya se cerró; ${SIGN_IN_AGAIN}` };
  if (session.expira_en <= deps.clock.now()) return { refused: `La sesión venció; ${SIGN_IN_AGAIN}` };
  const blocked = accountBlockReason(session.usuario);
  if (blocked) return { refused: blocked };
  return memberFor(session.usuario, {
    via: "token",
    session: { id: session.id, expiresAt: session.expira_en },
    actingAdminId: null,
    address,
  });
}

/** A session not revoked, with its user's standing; remembered while neither changes. */
async function findSession(deps: Deps, tokenHash: string): Promise<KnownSession | null> {
  const now = deps.clock.now();
  const known = deps.callers.session(tokenHash, now);
  if (known) return known;
  const changes = deps.callers.changes;
  const found = await deps.reads.session.findUnique({
    where: { token_hash: tokenHash },
    select: { id: true, expira_en: true, revocada_en: true, usuario: { select: STANDING } },
  });
  if (!found || found.revocada_en) return null;
  const session = { id: found.id, expira_en: found.expira_en, usuario: found.usuario };
  deps.callers.rememberSession(tokenHash, session, now, changes);
  return session;
}

/**
 * Ends every live session of a user and the trust of their devices, inside the caller's
 * transaction, and answers the sessions' ids; `announceRevoked` them once it commits, so that open
 * connections close on every process.
 */
export async function revokeUserAccess(tx: Tx, userId: number, now: Date): Promise<number[]> {
  await distrustDevices(tx, userId);
  const live = await tx.session.findMany({ where: { usuario_id: userId, revocada_en: null }, select: { id: true } });
  if (live.length === 0) return [];
  const ids = live.map((session) => session.id);
  await tx.session.updateMany({ where: { id: { in: ids } }, data: { revocada_en: now } });
  return ids;
}

export function announceRevoked(deps: Pick<Deps, "events" | "callers">, sessionIds: number[]): void {
  if (sessionIds.length === 0) return;
  deps.callers.forgetSessions(sessionIds);
  deps.events.publish("sesion_revocada", { sesiones: sessionIds });
}

/** A user's role or standing changed (or the account was deleted): every process reads it again. */
export function announceAccountChange(deps: Pick<Deps, "events" | "callers">, userId: number): void {
  deps.callers.forgetUser(userId);
  deps.events.publish("cuenta_cambiada", { usuario_id: userId });
}

/** Keeps this process's remembered callers in step with changes made on other processes; runs until `stop`. */
export function followAccountChanges(deps: Deps): { stop: () => Promise<void> } {
  const revoked = deps.events.subscribe("sesion_revocada");
  const changed = deps.events.subscribe("cuenta_cambiada");
  const done = [
    (async () => {
      for await (const { sesiones } of revoked) deps.callers.forgetSessions(sesiones);
    })(),
    (async () => {
      for await (const { usuario_id } of changed) deps.callers.forgetUser(usuario_id);
    })(),
  ].map((loop) => loop.catch((error) => deps.log.error({ err: error }, "stopped following account changes")));
  return {
    stop: async () => {
      await Promise.all([revoked.return?.(), changed.return?.()]);
      await Promise.all(done);
    },
  };
}

/** Logs out: ends the session the call was made with. */
export async function logout(deps: Deps, actor: Actor): Promise<void> {
  const { session } = member(actor, ACCOUNT_RULES.session);
  // The rule admits only callers with a session.
  const id = session!.id;
  await deps.db.session.updateMany({ where: { id, revocada_en: null }, data: { revocada_en: deps.clock.now() } });
  announceRevoked(deps, [id]);
}
