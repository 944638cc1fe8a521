import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from "node:crypto";
import type { Plugin } from "graphql-yoga";
import { isUniqueViolation, type Db } from "../db/client.js";
import { beginUnit, unitScope, UnitWaitTimeout, type OpenUnit } from "../db/unit.js";
import type { Provider } from "../db/url.js";
import type { Clock, Logger } from "../domain/deps.js";
import type { DatabaseOutage } from "../domain/outage.js";
import { type BodyLimits, limitFor, readAndHandOn, unreadableBody } from "./body.js";
import { failure, graphqlFailure } from "./failure.js";
import { BUSY, busyHeaders } from "./overload.js";
import { Response } from "./response.js";

/** How long an answer is kept for retries of its request. */
const IDEMPOTENCY_TTL_MS = 24 * 3600 * 1000;
export const MAX_KEY_LENGTH = 255;
/** The header every replayed answer carries (as Stripe's does). */
export const REPLAYED_HEADER = "idempotent-replayed";

const DONE = "terminada";
// Expired rows are also deleted as they are met; the sweep keeps keys nobody retries from piling up.
const SWEEP_EVERY_MS = 60_000;
// Answers kept as text; streams (event streams, multipart/mixed) and binary answers are not kept.
const KEPT_TYPES = /^(application\/([\w.+-]*\+)?json\b|text\/(?!event-stream))/i;
const NULL_BODY = new Set([204, 205, 304]);
// Headers that belong to the connection or that the edge adds to every answer, replays included.
const NOT_KEPT = /^(content-length|transfer-encoding|connection|keep-alive|date|vary|access-control-.*)$/i;

export interface IdempotencyOptions extends BodyLimits {
  clock: Clock;
  log: Logger;
  provider: Provider;
  /** Where a database that cannot serve is counted, rather than logged request by request. */
  database: Pick<DatabaseOutage, "report">;
  /** How long a retry waits for the first request with its key to end before giving up with 409. */
  waitMs?: number;
  /** How long the work of a keyed request may take; past it the work is undone. */
  workMs?: number;
}

interface Held {
  unit: OpenUnit;
  id: number;
  /** The key's record, as `ownerId` names it. */
  owner: string;
  creado_en: Date;
  secret: Buffer;
}

const sha256 = (data: string | Uint8Array) => createHash("sha256").update(data).digest("hex");

/**
 * Kept answers may carry secrets (a login's session token), and the database alone must not
 * reveal them: they are sealed with a key derived from the Idempotency-Key and the Authorization
 * header, which only the client has (the row keeps their hashes).
 */
const sealingKey = (key: string, authorization: string) =>
  Buffer.from(hkdfSync("sha256", `${key}\n${authorization}`, "solicitudes_idempotentes", "cuerpo", 32));

function seal(secret: Buffer, text: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", secret, iv);
  const sealed = Buffer.concat([cipher.update(text, "utf8"), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString("base64");
}

function unseal(secret: Buffer, stored: string): string {
  const bytes = Buffer.from(stored, "base64");
  const decipher = createDecipheriv("aes-256-gcm", secret, bytes.subarray(0, 12));
  decipher.setAuthTag(bytes.subarray(12, 28));
  return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString("utf8");
}

const ownerId = (owner: { clave: string; huella_credencial: string }) => `${owner.clave}:${owner.huella_credencial}`;

// Not headers.has: Yoga's Headers of a request from Node say an empty header is not there.
const keyed = (request: Request) => request.method === "POST" && request.headers.get("idempotency-key") !== null;
// Event streams are never kept: a key on one means nothing.
const streams = (request: Request) => /text\/event-stream/i.test(request.headers.get("accept") ?? "");

/** The wait for the first request with a key ran out: PostgreSQL's lock timeout, or a transaction that could not begin in time. */
const waitedTooLong = (error: unknown) =>
  error instanceof UnitWaitTimeout ||
  (error instanceof Error && /lock timeout|55P03/i.test(`${error.message} ${(error as { code?: string }).code ?? ""}`));

/**
 * `Idempotency-Key` on POST, with Stripe's semantics: a retry within 24 h gets the first answer
 * (status, body, headers) without the work running again; the same key with another request is
 * refused with 422; a retry arriving while the first still runs waits for its answer. Keys belong
 * to the caller's credentials (the SHA-256 of the Authorization header), so nobody reads another
 * caller's answer. 5xx and 429 answers are not kept: the work is undone and may run again.
 *
 * Exactly once: a keyed request runs as one unit of work (src/db/unit.ts). The record of its key,
 * the work and the answer kept for it commit in one transaction, so a change is never committed
 * without its answer, whatever dies when; a key whose work never committed is free at once. The
 * record's unique index makes a retry that arrives meanwhile wait until the first commits (then
 * it is answered with the first answer) or is undone (then it runs).
 */
export function useIdempotency(db: Db, options: IdempotencyOptions): Plugin {
  const { clock, log, provider, database, waitMs = 30_000, workMs = 60_000 } = options;
  // The unit each keyed request holds, found again when its answer comes back; each request has its own server context.
  const held = new WeakMap<object, Held>();
  // The keys whose work runs in this process now.
  const running = new Set<string>();
  let graphqlEndpoint = "/graphql";
  let sweptAt: number | null = null;

  function sweep(now: Date): void {
    // The distance, not the order: a test clock may be set back.
    if (sweptAt !== null && Math.abs(now.getTime() - sweptAt) < SWEEP_EVERY_MS) return;
    sweptAt = now.getTime();
    db.idempotentRequest.deleteMany({ where: { expira_en: { lte: now } } }).catch((error) => {
      if (!database.report("requests", error)) log.error({ err: error }, "could not delete expired idempotency records");
    });
  }

  function replay(row: { codigo_http: number | null; cabeceras: string | null; cuerpo: string | null }, secret: Buffer): Response {
    const status = row.codigo_http ?? 200;
    const headers = { ...(JSON.parse(row.cabeceras ?? "{}") as Record<string, string>), [REPLAYED_HEADER]: "true" };
    return new Response(NULL_BODY.has(status) || row.cuerpo === null ? null : unseal(secret, row.cuerpo), { status, headers });
  }

  /**
   * Begins the request's unit with its key recorded in it, or answers at once: the first answer
   * (replayed), or a refusal. A retry of a request still running waits here for it.
   */
  async function claim(
    owner: { clave: string; huella_credencial: string },
    sent: { metodo: string; ruta: string; huella_cuerpo: string },
    secret: Buffer,
    refuse: (status: number, message: string, code: string) => Response,
  ): Promise<{ held: Held } | { response: Response }> {
    const now = clock.now();
    sweep(now);
    // Twice at most: a retry that waited for the first request finds its answer the second time.
    for (let attempt = 1; ; attempt++) {
      let unit: OpenUnit;
      try {
        unit = await beginUnit(db, { timeoutMs: workMs, maxWaitMs: waitMs });
      } catch (error) {
        // On SQLite a unit waits for the one before it: the first request with this key, or another's.
        if (error instanceof UnitWaitTimeout && running.has(ownerId(owner))) return { response: inProgress(refuse) };
        throw error;
      }
      try {
        if (provider === "postgresql") await unit.tx.$executeRawUnsafe(`SET LOCAL lock_timeout = ${Math.ceil(waitMs)}`);
        const row = await unit.tx.idempotentRequest.findUnique({ where: { clave_huella_credencial: owner } });
        if (row && row.expira_en > now) {
          await unit.rollback();
          if (row.metodo !== sent.metodo || row.ruta !== sent.ruta || row.huella_cuerpo !== sent.huella_cuerpo) {
            return {
              response: refuse(
                422,
                "La clave Idempotency-Key ya se usó con otra petición (otro cuerpo, método o ruta); " +
                  "usa una clave nueva para cada petición distinta",
                "IDEMPOTENCY_KEY_REUSED",
              ),
            };
          }
          if (row.estado === DONE) return { response: replay(row, secret) };
          // A claim of the service before units (it held keys with a lease): it runs still, or ends soon.
          return { response: inProgress(refuse) };
        }
        // Expired: gone already if the sweep (here or in another process) got there first.
        if (row) await unit.tx.idempotentRequest.deleteMany({ where: { id: row.id } });
        const created = await unit.tx.idempotentRequest.create({
          data: { ...owner, ...sent, estado: DONE, creado_en: now, expira_en: new Date(now.getTime() + IDEMPOTENCY_TTL_MS) },
          select: { id: true },
        });
        running.add(ownerId(owner));
        return { held: { unit, id: created.id, owner: ownerId(owner), creado_en: now, secret } };
      } catch (error) {
        await unit.rollback().catch(() => undefined);
        // The first request with this key committed while this one waited: its answer is there now.
        if (isUniqueViolation(error) && attempt < 2) continue;
        if (waitedTooLong(error)) return { response: inProgress(refuse) };
        throw error;
      }
    }
  }

  const inProgress = (refuse: (status: number, message: string, code: string) => Response) =>
    refuse(409, "La solicitud original con esta clave Idempotency-Key sigue en curso; intenta de nuevo en unos segundos", "CONFLICT");

  /** A request that carries an Idempotency-Key: refused, answered with the answer kept for it, or run as a unit. */
  async function onKeyed(
    key: string,
    { request, url, serverContext, fetchAPI, setRequest, endResponse }: Parameters<NonNullable<Plugin["onRequest"]>>[0],
  ): Promise<void> {
    // Refusals in the shape the path answers in: GraphQL errors at /graphql (and under it), `{ success: false }` elsewhere.
    const graphql = url.pathname === graphqlEndpoint || url.pathname.startsWith(`${graphqlEndpoint}/`);
    const refuse = (status: number, message: string, code: string) =>
      graphql ? graphqlFailure(status, message, code) : failure(status, message);
    if (key === "") return endResponse(refuse(400, "La cabecera Idempotency-Key no puede estar vacía", "VALIDATION"));
    if (key.length > MAX_KEY_LENGTH) {
      return endResponse(refuse(400, `La cabecera Idempotency-Key admite hasta ${MAX_KEY_LENGTH} caracteres`, "VALIDATION"));
    }
    if (streams(request)) return;

    const limit = limitFor(request, options);
    const declared = request.headers.get("content-length");
    // Too large as declared: nothing is read, and the path refuses it exactly as it would without a key.
    if (declared !== null && Number(declared) > limit) return;
    let body: Buffer;
    try {
      // Read once to hash it; what comes after reads the copy handed on.
      body = await readAndHandOn(request, limit, fetchAPI, setRequest);
    } catch (error) {
      return endResponse(unreadableBody(error, limit, refuse));
    }

    const authorization = request.headers.get("authorization") ?? "";
    const owner = { clave: sha256(key), huella_credencial: authorization ? sha256(authorization) : "" };
    const sent = { metodo: request.method, ruta: url.pathname + url.search, huella_cuerpo: sha256(body) };
    try {
      const outcome = await claim(owner, sent, sealingKey(key, authorization), refuse);
      if ("held" in outcome) held.set(serverContext, outcome.held);
      else endResponse(outcome.response);
    } catch (error) {
      // Without the record there is no promise that the work runs once: the client may retry.
      if (!database.report("requests", error)) log.error({ err: error }, "could not begin the work of an idempotent request");
      endResponse(graphql ? graphqlFailure(503, UNCONFIRMED, BUSY.code, busyHeaders) : failure(503, UNCONFIRMED, busyHeaders));
    }
  }

  /**
   * Keeps the answer with the work and commits both. An answer that is no answer (a server
   * failure, a rate limit, a stream) undoes the work instead, so that a retry runs it again.
   */
  async function keep(
    { unit, id, creado_en, secret }: Held,
    response: Response,
    graphql: boolean,
    setResponse: (response: Response) => void,
  ): Promise<void> {
    const type = response.headers.get("content-type");
    if (response.status >= 500 || response.status === 429 || (type !== null && !KEPT_TYPES.test(type))) {
      await unit.rollback().catch((error) => {
        if (!database.report("requests", error)) log.error({ err: error }, "could not undo the work of an idempotent request");
      });
      return;
    }
    // Read here and sent from a copy: a ponyfilled Response's clone() is the same object, and a
    // ponyfilled Headers copied into a new ponyfilled Response picks up that body's own type.
    const text = await response.text();
    const headers: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      if (name !== "content-length") headers[name] = value;
    });
    const answer = new Response(NULL_BODY.has(response.status) ? null : text, {
      status: response.status,
      statusText: response.statusText,
      headers,
    });
    setResponse(answer);
    const kept = Object.fromEntries(Object.entries(headers).filter(([name]) => !NOT_KEPT.test(name)));
    try {
      await unit.tx.idempotentRequest.update({
        where: { id },
        data: {
          codigo_http: response.status,
          cabeceras: JSON.stringify(kept),
          cuerpo: seal(secret, text),
          expira_en: new Date(creado_en.getTime() + IDEMPOTENCY_TTL_MS),
        },
      });
      await unit.commit();
    } catch (error) {
      await unit.rollback().catch(() => undefined);
      // A refusal changed nothing: it is answered as it was, only not kept.
      if (response.status >= 400) return;
      // Undone, or committed without our hearing it (the connection went at the commit): the same key tells.
      if (!database.report("requests", error)) log.error({ err: error }, "could not commit the work of an idempotent request");
      setResponse(graphql ? graphqlFailure(503, UNCONFIRMED, BUSY.code, busyHeaders) : failure(503, UNCONFIRMED, busyHeaders));
    }
  }

  return {
    onYogaInit({ yoga }) {
      graphqlEndpoint = yoga.graphqlEndpoint;
    },
    // A keyed request runs in a scope of its own, where its unit lives from the claim to the answer.
    instrumentation: {
      request: ({ request }, wrapped) => (keyed(request) ? unitScope(wrapped) : wrapped()),
    },
    onRequest(payload) {
      // Most requests carry no key and pass on at once.
      if (keyed(payload.request)) return onKeyed(payload.request.headers.get("idempotency-key")!, payload);
    },
    onResponse({ request, serverContext, response, setResponse }) {
      const unit = held.get(serverContext);
      if (!unit) return;
      held.delete(serverContext);
      const path = new URL(request.url).pathname;
      const graphql = path === graphqlEndpoint || path.startsWith(`${graphqlEndpoint}/`);
      return keep(unit, response, graphql, setResponse).finally(() => running.delete(unit.owner));
    },
  };
}

const UNCONFIRMED = "No se pudo confirmar la solicitud; repítela con la misma clave Idempotency-Key en unos segundos: se hará una sola vez";
