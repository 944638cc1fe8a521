import { existsSync, readdirSync, readFileSync } from "node:fs";
import { extname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import type { Plugin } from "graphql-yoga";
import { Response } from "./response.js";

const CONSOLE_PATH = "/consola";

/** Where `npm run build` writes the console: build/consola, beside the compiled server (build/http/). */
const BUILT_CONSOLE = fileURLToPath(new URL("../consola/", import.meta.url));

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
};

// A client route: lower-case words and numbers between slashes, never a dot, so never a file name.
const CLIENT_ROUTE = /^[a-z0-9-]+(\/[a-z0-9-]+)*\/?$/;

interface BuiltFile {
  bytes: Uint8Array<ArrayBuffer>;
  type: string;
}

/** Every built file by its path under /consola/, read once: requests are matched against this list, never against the disk. */
function readBuild(dir: string): Map<string, BuiltFile> | null {
  if (!existsSync(join(dir, "index.html"))) return null;
  const files = new Map<string, BuiltFile>();
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const type = TYPES[extname(entry.name)];
    if (!entry.isFile() || !type) continue;
    const path = join(entry.parentPath, entry.name);
    files.set(relative(dir, path).split(sep).join("/"), { bytes: new Uint8Array(readFileSync(path)), type });
  }
  return files;
}

/** A CSP source for the tile server: its origin, with a `{s}` subdomain placeholder as a wildcard. */
function tileSource(tilesUrl: string): string {
  const { protocol, host } = new URL(tilesUrl);
  return `${protocol}//${host.replace(/^(%7B|\{)s(%7D|\})\./i, "*.")}`;
}

/** The headers of every answer under /consola: the page loads nothing from anywhere but this origin (and the tile server). */
function consoleHeaders(tilesUrl: string | undefined): Record<string, string> {
  const images = ["'self'", "data:", "blob:", ...(tilesUrl ? [tileSource(tilesUrl)] : [])].join(" ");
  return {
    "content-security-policy": [
      "default-src 'none'",
      "script-src 'self'",
      "style-src 'self'",
      `img-src ${images}`,
      // 'self' covers the graphql-ws WebSocket to this same host (ws: and wss:).
      "connect-src 'self'",
      "font-src 'self'",
      "frame-ancestors 'none'",
      "base-uri 'none'",
      "form-action 'none'",
    ].join("; "),
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "x-frame-options": "DENY",
  };
}

const escapeAttribute = (value: string) => value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** index.html with the settings the page reads at start: written here once, so the built files stay the same for every deployment. */
function withSettings(index: Uint8Array<ArrayBuffer>, tilesUrl: string | undefined): Uint8Array<ArrayBuffer> {
  if (!tilesUrl) return index;
  const meta = `<meta name="map-tiles" content="${escapeAttribute(tilesUrl)}">`;
  return new TextEncoder().encode(new TextDecoder().decode(index).replace("</head>", `${meta}\n</head>`));
}

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
  const headers = consoleHeaders(tilesUrl);
  const index = files?.get("index.html");
  const page = index && withSettings(index.bytes, tilesUrl);

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
