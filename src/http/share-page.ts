import { fileURLToPath } from "node:url";
import type { Plugin } from "graphql-yoga";
import type { Deps, Logger } from "../domain/deps.js";
import { RateLimitError } from "../domain/errors.js";
import type { DatabaseOutage } from "../domain/outage.js";
import { followShare } from "../domain/safety/share-feed.js";
import type { SharedLink } from "../domain/safety/share-links.js";
import { lookUpShare, shownTrip, type ShareLookup } from "../domain/safety/share-viewing.js";
import { pageHeaders, readBuild, withSettings } from "./built-pages.js";
import { BUSY, busyHeaders } from "./overload.js";
import { Response } from "./response.js";

const SHARE_PATH = "/seguimiento/";
/** The page's scripts and styles, under names that change with their content. */
const ASSETS = "recursos/";

/**
 * Where `npm run build` writes the page: build/seguimiento. Found from the project's root, which
 * is two folders up from this file both in src/http and, compiled, in build/http.
 */
const BUILT_PAGE = fileURLToPath(new URL("../../build/seguimiento/", import.meta.url));

/** A token as links carry it (base64url); anything else names no link, and is not looked up. */
const TOKEN = /^[A-Za-z0-9_-]{16,100}$/;

/** What the page shows for each outcome, chosen by its body's data-enlace (the built page's is "activo"). */
type PageState = "activo" | "terminado" | "desconocido" | "limitado" | "error";
const PAGE_STATES: readonly PageState[] = ["activo", "terminado", "desconocido", "limitado", "error"];

/** How long a browser waits before opening a dropped stream again. */
const RETRY_MS = 3000;
/** How often an open stream tells the page that the server is still there. */
const HEARTBEAT_MS = 15_000;

export interface SharePageOptions {
  deps: Deps;
  /** MAP_TILES_URL: the tile template the map uses. */
  tilesUrl?: string | undefined;
  /** Where a request comes from, for the per-address limit. */
  addressOf(request: Request, serverContext: object): string | null;
  database: DatabaseOutage;
  log: Logger;
}

const UNBUILT = `<!doctype html>
<html lang="es"><head><meta charset="utf-8"><title>Seguimiento no disponible</title></head>
<body><h1>La página de seguimiento no está compilada</h1>
<p>Ejecuta <code>npm run build</code> en el servidor y vuelve a iniciarlo.</p></body></html>
`;

const encoder = new TextEncoder();
const now = (deps: Deps) => deps.clock.now().toISOString();

/**
 * The page a trip's share link opens, /seguimiento/<token>, for anyone who holds it: no account,
 * the token alone. The page (the same built file for every link, told only which state to show),
 * its live stream (/eventos, Server-Sent Events) and the JSON it polls when the stream fails
 * (/estado) carry nothing but what `SharedTrip` lets through. Every request about a token counts
 * against its address. `close` ends the open streams, for a process that stops.
 */
export function useSharePage(options: SharePageOptions): { plugin: Plugin; close(): void } {
  const { deps, database, log } = options;
  const files = readBuild(BUILT_PAGE);
  const index = files?.get("index.html");
  const headers = { ...pageHeaders(options.tilesUrl), "x-robots-tag": "noindex, nofollow" };
  const pages = new Map<PageState, Uint8Array<ArrayBuffer>>();
  if (index) {
    const page = withSettings(index.bytes, { "map-tiles": options.tilesUrl });
    const html = new TextDecoder().decode(page);
    for (const state of PAGE_STATES) pages.set(state, encoder.encode(html.replace('data-enlace="activo"', `data-enlace="${state}"`)));
  }
  const streams = new Set<AbortController>();

  const answer = (status: number, body: BodyInit, type: string, extra: Record<string, string> = {}) =>
    new Response(body, { status, headers: { ...headers, "cache-control": "no-store", "content-type": type, ...extra } });
  const html = (status: number, state: PageState, extra?: Record<string, string>) => {
    const page = pages.get(state);
    return page ? answer(status, page, "text/html; charset=utf-8", extra) : answer(503, UNBUILT, "text/html; charset=utf-8");
  };
  const json = (status: number, body: object, extra?: Record<string, string>) =>
    answer(status, JSON.stringify(body), "application/json; charset=utf-8", extra);
  const NOT_FOUND = "Este enlace de seguimiento no existe";

  /** An answer for what failed: too many requests from the address, a database away, or anything else (logged). */
  function failed(error: unknown, asPage: boolean): Response {
    if (error instanceof RateLimitError) {
      const retry = { "retry-after": String(error.retryAfterS) };
      return asPage ? html(429, "limitado", retry) : json(429, { message: error.message }, retry);
    }
    const busy = database.report("share pages", error);
    if (!busy) log.error({ err: error }, "a share link request failed");
    const [status, message, extra] = busy ? [BUSY.status, BUSY.message, busyHeaders] : [500, "Error interno del servidor", undefined];
    return asPage ? html(status, "error", extra) : json(status, { message }, extra);
  }

  const pageFor = (opened: ShareLookup) =>
    opened.kind === "unknown" ? html(404, "desconocido") : html(200, opened.kind === "showing" ? "activo" : "terminado");

  function state(opened: ShareLookup): Response {
    if (opened.kind === "unknown") return json(404, { message: NOT_FOUND });
    if (opened.kind === "ended") return json(200, { enlace: "terminado", servidor_en: now(deps) });
    return json(200, { enlace: "activo", viaje: shownTrip(deps, opened.link), servidor_en: now(deps) });
  }

  /** The link's updates as Server-Sent Events, with a heartbeat, until the link stops showing the trip or the page leaves. */
  function stream(token: string, link: SharedLink | null, request: Request): Response {
    const left = new AbortController();
    streams.add(left);
    request.signal.addEventListener("abort", () => left.abort(), { once: true });
    let open = true;
    let beat: ReturnType<typeof setInterval> | undefined;
    const body = new ReadableStream<Uint8Array>({
      start(sink) {
        const send = (event: string, data: object) => {
          if (open) sink.enqueue(encoder.encode(`event: ${event}\ndata: ${JSON.stringify({ ...data, servidor_en: now(deps) })}\n\n`));
        };
        sink.enqueue(encoder.encode(`retry: ${RETRY_MS}\n\n`));
        beat = setInterval(() => send("latido", {}), HEARTBEAT_MS);
        (async () => {
          if (!link) return send("terminado", {});
          for await (const update of followShare(deps, token, link, left.signal)) {
            send(update.tipo, update.tipo === "viaje" ? { viaje: update.viaje } : {});
          }
        })()
          .catch((error: unknown) => {
            // The page falls back to polling /estado, which says what is wrong.
            if (!database.report("share streams", error)) log.error({ err: error }, "a share link stream failed");
          })
          .finally(() => {
            clearInterval(beat);
            streams.delete(left);
            // Not when the page left first: its stream is cancelled already.
            if (open) sink.close();
            open = false;
          });
      },
      cancel() {
        open = false;
        clearInterval(beat);
        left.abort();
      },
    });
    // The connection ends with the stream: a stopping process then has nothing left open to wait for.
    return answer(200, body, "text/event-stream; charset=utf-8", { "x-accel-buffering": "no", connection: "close" });
  }

  async function serve(rest: string, request: Request, serverContext: object): Promise<Response> {
    if (rest.startsWith(ASSETS)) {
      const file = files?.get(rest);
      return file
        ? new Response(file.bytes, {
            headers: { ...headers, "content-type": file.type, "cache-control": "public, max-age=31536000, immutable" },
          })
        : answer(404, "No existe ese archivo", "text/plain; charset=utf-8");
    }
    const [token = "", what = "", ...more] = rest.split("/");
    const known = TOKEN.test(token) && more.length === 0 && ["", "estado", "eventos"].includes(what);
    const asPage = what === "";
    if (!known) return asPage ? html(404, "desconocido") : json(404, { message: NOT_FOUND });
    // A stream answered to HEAD would be opened for nobody to read.
    if (what === "eventos" && request.method !== "GET") return json(405, { message: "Usa GET" }, { allow: "GET" });
    try {
      const opened = await lookUpShare(deps, token, options.addressOf(request, serverContext));
      if (asPage) return pageFor(opened);
      if (what === "estado") return state(opened);
      if (opened.kind === "unknown") return json(404, { message: NOT_FOUND });
      return stream(token, opened.kind === "showing" ? opened.link : null, request);
    } catch (error) {
      return failed(error, asPage);
    }
  }

  return {
    plugin: {
      onRequest({ request, url, serverContext, endResponse }) {
        if (!url.pathname.startsWith(SHARE_PATH)) return;
        if (request.method !== "GET" && request.method !== "HEAD") {
          return endResponse(json(405, { message: "Usa GET" }, { allow: "GET, HEAD" }));
        }
        return serve(url.pathname.slice(SHARE_PATH.length), request, serverContext).then(endResponse);
      },
    },
    close() {
      for (const stream of streams) stream.abort();
    },
  };
}
