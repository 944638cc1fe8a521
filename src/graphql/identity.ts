import type { IncomingMessage } from "node:http";
import { anonymous, type Actor, type Member } from "../domain/actor.js";
import { authenticate, memberById } from "../domain/accounts/sessions.js";
import type { Deps } from "../domain/deps.js";
import { ForbiddenError, UnauthenticatedError } from "../domain/errors.js";
import { clientAddress } from "../http/address.js";

/**
 * Caller identity, resolved here and nowhere else. GraphQL knows callers only by a session token
 * (`Authorization: Bearer <token>` over HTTP and SSE, `authorization` in the graphql-ws connection
 * parameters). Legacy calls may also be known by the id they carry, as the specification has it,
 * when LEGACY_AUTH=ids; with LEGACY_AUTH=token they need the token too.
 */
export interface IdentitySettings {
  legacyAuth: "ids" | "token";
  trustProxyHops: number;
}

/** What the legacy shim says about a call, in-process: outside requests cannot carry it. */
export interface LegacyClaim {
  /** The field naming the caller (userId, usuario_id, conductor_id, admin_id) and its value, when the call has one. */
  caller?: { field: string; id: number };
  /** Calls anyone may make (login, register, the account and phone checks, codes, maps, nearby cars) need nobody signed in. */
  public: boolean;
}

export interface Transport {
  /** The HTTP request's headers (credentials, forwarded addresses), on calls made over HTTP. */
  request?: { headers: Pick<Headers, "get"> };
  /** Node's request, present on calls that came over a socket. */
  req?: IncomingMessage;
  connectionParams?: Record<string, unknown>;
  legacy?: LegacyClaim;
  /** Already resolved: graphql-ws checks a connection once, at connection_init. */
  actor?: Actor;
}

const BEARER = /^Bearer\s+(\S+)\s*$/i;
const SESSION_NEEDED = "Esta llamada necesita la cabecera Authorization: Bearer <token>; obtén uno en /auth/login.php";

export function createIdentity(deps: Deps, settings: IdentitySettings) {
  const address = (transport: Transport) => clientAddress(transport.req, transport.request?.headers, settings.trustProxyHops);

  /** The token sent, if any: "" when the credentials are not a Bearer token. */
  function tokenOf(transport: Transport): string | null {
    const params = transport.connectionParams;
    const raw = params ? (params.authorization ?? params.Authorization) : transport.request?.headers.get("authorization");
    if (raw === undefined || raw === null || raw === "") return null;
    return (typeof raw === "string" && BEARER.exec(raw)?.[1]) || "";
  }

  async function verified(token: string, from: string | null): Promise<Member | { refused: string }> {
    if (token === "") return { refused: "La cabecera Authorization debe tener la forma 'Bearer <token>'" };
    return authenticate(deps, token, from);
  }

  /** A legacy call: its token when it sends one, otherwise (LEGACY_AUTH=ids) the id it carries. */
  async function legacyActor(claim: LegacyClaim, token: string | null, from: string | null): Promise<Actor> {
    // Public calls ignore credentials, so that a stale token never stands between a user and login.
    if (claim.public) return anonymous(from);
    if (token !== null) {
      const user = await verified(token, from);
      if ("refused" in user) throw new UnauthenticatedError(user.refused);
      if (!claim.caller || claim.caller.id === user.id) return user;
      if (!user.admin) {
        throw new ForbiddenError(`El campo '${claim.caller.field}' (${claim.caller.id}) no corresponde al usuario de la sesión`);
      }
      // An administrator may make a call for the user it names.
      return memberById(deps, claim.caller.id, { via: "token", session: user.session, actingAdminId: user.id, address: from });
    }
    if (settings.legacyAuth === "token") throw new UnauthenticatedError(SESSION_NEEDED);
    if (!claim.caller) return { kind: "unnamed", address: from };
    return memberById(deps, claim.caller.id, { via: "ids", session: null, actingAdminId: null, address: from });
  }

  return {
    /**
     * A legacy call that can be nobody's (LEGACY_AUTH=token and no credentials sent), refused before
     * its fields are read: whoever sent it is told to sign in, not what else is wrong with it.
     */
    unsignedLegacyCall(isPublic: boolean, headers: Pick<Headers, "get">): UnauthenticatedError | null {
      return !isPublic && settings.legacyAuth === "token" && !headers.get("authorization")
        ? new UnauthenticatedError(SESSION_NEEDED)
        : null;
    },
    /** Who is calling. GraphQL callers with a token that does not count are anonymous, and told why. */
    /** Where a request comes from, for what is counted per address without anybody signed in. */
    address,
    async actor(transport: Transport): Promise<Actor> {
      if (transport.actor) return transport.actor;
      const from = address(transport);
      const token = tokenOf(transport);
      if (transport.legacy) return legacyActor(transport.legacy, token, from);
      if (token === null) return anonymous(from);
      const user = await verified(token, from);
      return "refused" in user ? anonymous(from, user.refused) : user;
    },
  };
}

export type Identity = ReturnType<typeof createIdentity>;
