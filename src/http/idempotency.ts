import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import type { Plugin } from "graphql-yoga";
import { isUniqueViolation, type Db } from "../db/client.js";
import type { Clock, Logger } from "../domain/deps.js";
import { type BodyLimits, limitFor, readAndHandOn, unreadableBody } from "./body.js";
import { failure, graphqlFailure } from "./failure.js";
import { Response } from "./response.js";

/** How long an answer is kept for retries of its request. */
const IDEMPOTENCY_TTL_MS = 24 * 3600 * 1000;
export const MAX_KEY_LENGTH = 255;
/** The header every replayed answer carries (as Stripe's does). */
export const REPLAYED_HEADER = "idempotent-replayed";

const IN_PROGRESS = "en_curso";
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
  /** How long a retry waits for the first request with its key before giving up with 409. */
  waitMs?: number;
  /** How often a waiting retry looks at the record again. */
  pollMs?: number;
  /**
   * How long a claim holds while its request runs: a process that died mid-request frees its keys
   * after this. Far longer than any request takes (database waits end after 25 s).
   */
  leaseMs?: number;
}

interface Claim {
  id: number;
  creado_en: Date;
  secret: Buffer;
}

type Outcome = { claim: Claim } | { response: Response };

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

/**
 * `Idempotency-Key` on POST, with Stripe's semantics: a retry within 24 h gets the first answer
 * (status, body, headers) without the work running again; the same key with another request is
 * refused with 422; a retry arriving while the first still runs waits for its answer. Keys belong
 * to the caller's credentials (the SHA-256 of the Authorization header), so nobody reads another
 * caller's answer. 5xx and 429 answers are not kept: the key is released and the work may run again.
 *
 * The record lives in the database, so this holds across processes: the first request claims the
 * key by inserting a row, and the unique index decides who got it.
 */
export function useIdempotency(db: Db, options: IdempotencyOptions): Plugin {
  const { clock, log, waitMs = 30_000, pollMs = 50, leaseMs = 60_000 } = options;
  const rows = db.idempotentRequest;
  // The claim each request holds, found again when its answer comes back; each request has its own server context.
  const claims = new WeakMap<object, Claim>();
  let graphqlEndpoint = "/graphql";
  let sweptAt: number | null = null;

  async function sweep(now: Date): Promise<void> {
    // The distance, not the order: a test clock may be set back.
    if (sweptAt !== null && Math.abs(now.getTime() - sweptAt) < SWEEP_EVERY_MS) return;
    sweptAt = now.getTime();
    await rows.deleteMany({ where: { expira_en: { lte: now } } });
  }

  async function claim(
    owner: { clave: string; huella_credencial: string },
    sent: { metodo: string; ruta: string; huella_cuerpo: string },
    secret: Buffer,
    refuse: (status: number, message: string, code: string) => Response,
  ): Promise<Outcome> {
    // Real time, not the clock: an injected clock that stands still must not make a retry wait forever.
    const started = performance.now();
    await sweep(clock.now());
    for (;;) {
      const now = clock.now();
      try {
        const row = await rows.create({
          data: { ...owner, ...sent, estado: IN_PROGRESS, creado_en: now, expira_en: new Date(now.getTime() + leaseMs) },
          select: { id: true },
        });
        return { claim: { id: row.id, creado_en: now, secret } };
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
      }
      // Somebody holds the key: the same request, another one, or a record past its time.
      const row = await rows.findUnique({ where: { clave_huella_credencial: owner } });
      if (row && row.expira_en <= now) {
        await rows.deleteMany({ where: { id: row.id, expira_en: { lte: now } } });
        continue;
      }
      if (row && (row.metodo !== sent.metodo || row.ruta !== sent.ruta || row.huella_cuerpo !== sent.huella_cuerpo)) {
        return {
          response: refuse(
            422,
            "La clave Idempotency-Key ya se usó con otra petición (otro cuerpo, método o ruta); " +
              "usa una clave nueva para cada petición distinta",
            "IDEMPOTENCY_KEY_REUSED",
          ),
        };
      }
      if (row?.estado === DONE) return { response: replay(row, secret) };
      if (performance.now() - started >= waitMs) {
        return {
          response: refuse(
            409,
            "La solicitud original con esta clave Idempotency-Key sigue en curso; intenta de nuevo en unos segundos",
            "CONFLICT",
          ),
        };
      }
      // Still running elsewhere (or just released: then the next insert takes it).
      if (row) await sleep(pollMs);
    }
  }

  function replay(row: { codigo_http: number | null; cabeceras: string | null; cuerpo: string | null }, secret: Buffer): Response {
    const status = row.codigo_http ?? 200;
    const headers = { ...(JSON.parse(row.cabeceras ?? "{}") as Record<string, string>), [REPLAYED_HEADER]: "true" };
    return new Response(NULL_BODY.has(status) || row.cuerpo === null ? null : unseal(secret, row.cuerpo), { status, headers });
  }

  const release = (held: Claim) => rows.deleteMany({ where: { id: held.id, estado: IN_PROGRESS } });

  /** A request that carries an Idempotency-Key: claimed, refused, or answered with the answer kept for it. */
  async function keyed(
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
      if ("claim" in outcome) claims.set(serverContext, outcome.claim);
      else endResponse(outcome.response);
    } catch (error) {
      // Without the record there is no promise that the work runs once: the client may retry.
      log.error({ err: error }, "could not claim an idempotency key");
      endResponse(refuse(503, "No se pudo registrar la clave Idempotency-Key; intenta de nuevo en unos segundos", "UNAVAILABLE"));
    }
  }

  /** Keeps the answer to a claimed request, or lets the claim go when the answer is no answer. */
  async function keep(held: Claim, response: Response, setResponse: (response: Response) => void): Promise<void> {
    try {
      const type = response.headers.get("content-type");
      // A server failure or a rate limit is no answer to the request: a retry runs it again.
      if (response.status >= 500 || response.status === 429 || (type !== null && !KEPT_TYPES.test(type))) {
        await release(held);
        return;
      }
      // Read here and sent from a copy: a ponyfilled Response's clone() is the same object, and a
      // ponyfilled Headers copied into a new ponyfilled Response picks up that body's own type.
      const text = await response.text();
      const headers: Record<string, string> = {};
      response.headers.forEach((value, name) => {
        if (name !== "content-length") headers[name] = value;
      });
      setResponse(
        new Response(NULL_BODY.has(response.status) ? null : text, { status: response.status, statusText: response.statusText, headers }),
      );
      const kept = Object.fromEntries(Object.entries(headers).filter(([name]) => !NOT_KEPT.test(name)));
      await rows.updateMany({
        // A claim that outlived its lease may have been taken over: then the newer request's answer counts.
        where: { id: held.id, estado: IN_PROGRESS },
        data: {
          estado: DONE,
          codigo_http: response.status,
          cabeceras: JSON.stringify(kept),
          cuerpo: seal(held.secret, text),
          expira_en: new Date(held.creado_en.getTime() + IDEMPOTENCY_TTL_MS),
        },
      });
    } catch (error) {
      // The answer still goes out; retries wait, then run again once the lease is over.
      log.error({ err: error }, "could not keep the answer of an idempotent request");
    }
  }

  return {
    onYogaInit({ yoga }) {
      graphqlEndpoint = yoga.graphqlEndpoint;
    },
    onRequest(payload) {
      // Most requests carry no key and pass on at once.
      const key = payload.request.method === "POST" ? payload.request.headers.get("idempotency-key") : null;
      if (key !== null) return keyed(key, payload);
    },
    onResponse({ serverContext, response, setResponse }) {
      const held = claims.get(serverContext);
      if (!held) return;
      claims.delete(serverContext);
      return keep(held, response, setResponse);
    },
  };
}
