import { fileURLToPath } from "node:url";
import type { Plugin } from "graphql-yoga";
import { pageHeaders, readBuild, withSettings } from "./built-pages.js";
import { Response } from "./response.js";

const CONSOLE_PATH = "/consola";

/** Where `npm run build` writes the console: build/consola, beside the compiled server (build/http/). */
const BUILT_CONSOLE = fileURLToPath(new URL("../consola/", import.meta.url));

// A client route: lower-case words and numbers between slashes, never a dot, so never a file name.
const CLIENT_ROUTE = /^[a-z0-9-]+(\/[a-z0-9-]+)*\/?$/;

const UNBUILT = `<!doctype html>
<html lang="es"><head><meta charset="utf-8"><title>Consola no disponible</title></head>
<body><h1>La consola no está compilada</h1>
<p>Ejecuta <code>npm run build</code> en el servidor y vuelve a iniciarlo.</p></body></html>
`;

export interface ConsoleOptions {
  /** MAP_TILES_URL: the tile template the maps use. */
  tilesUrl?: string | undefined;
  /** The built console; build/consola unless a test names another folder. */
  dir?: string;
}

/**
 * The admin console under /consola/, as a Yoga plugin: index.html for the page and its client
 * routes, the hashed files under assets/ with a long cache, all from a list read at start-up.
 */
export function useConsole({ tilesUrl, dir = BUILT_CONSOLE }: ConsoleOptions = {}): Plugin {
  const files = readBuild(dir);
  const headers = pageHeaders(tilesUrl);
  const index = files?.get("index.html");
  const page = index && withSettings(index.bytes, { "map-tiles": tilesUrl });

  const answer = (status: number, body: Uint8Array<ArrayBuffer> | string, type: string, cache: string) =>
    new Response(body, { status, headers: { ...headers, "content-type": type, "cache-control": cache } });

  function serve(path: string): Response {
    if (!files || !page) return answer(503, UNBUILT, "text/html; charset=utf-8", "no-store");
    const file = path === "index.html" ? undefined : files.get(path);
    // Hashed names change with their content, so they can be kept for good.
    if (file) return answer(200, file.bytes, file.type, path.startsWith("assets/") ? "public, max-age=31536000, immutable" : "no-cache");
    if (path === "" || path === "index.html" || CLIENT_ROUTE.test(path)) return answer(200, page, "text/html; charset=utf-8", "no-cache");
    return answer(404, "No existe ese archivo de la consola", "text/plain; charset=utf-8", "no-store");
  }

  return {
    onRequest({ request, url, endResponse }) {
      if (request.method !== "GET" && request.method !== "HEAD") return;
      if (url.pathname === CONSOLE_PATH) endResponse(serve(""));
      else if (url.pathname.startsWith(`${CONSOLE_PATH}/`)) endResponse(serve(url.pathname.slice(CONSOLE_PATH.length + 1)));
    },
  };
}
