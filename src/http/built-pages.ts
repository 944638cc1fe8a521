import { existsSync, readdirSync, readFileSync } from "node:fs";
import { extname, join, relative, sep } from "node:path";

/*
 * What the pages `npm run build` makes (the console, the trip share page) are served with: their
 * files read once at start-up, and headers under which they load nothing from any other origin.
 */

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

export interface BuiltFile {
  bytes: Uint8Array<ArrayBuffer>;
  type: string;
}

/** Every built file by its path under `dir`, read once: requests are matched against this list, never against the disk. */
export function readBuild(dir: string): Map<string, BuiltFile> | null {
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

/** The headers of every answer of a built page: it loads nothing from anywhere but this origin (and the tile server). */
export function pageHeaders(tilesUrl: string | undefined): Record<string, string> {
  const images = ["'self'", "data:", "blob:", ...(tilesUrl ? [tileSource(tilesUrl)] : [])].join(" ");
  return {
    "content-security-policy": [
      "default-src 'none'",
      "script-src 'self'",
      "style-src 'self'",
      `img-src ${images}`,
      // 'self' covers the graphql-ws WebSocket to this same host (ws: and wss:), and event streams.
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

/** A page's HTML with the settings it reads at start, written here once, so the built files stay the same for every deployment. */
export function withSettings(html: Uint8Array<ArrayBuffer>, settings: Record<string, string | undefined>): Uint8Array<ArrayBuffer> {
  const metas = Object.entries(settings)
    .filter((entry): entry is [string, string] => entry[1] !== undefined)
    .map(([name, content]) => `<meta name="${name}" content="${escapeAttribute(content)}">`);
  if (metas.length === 0) return html;
  return new TextEncoder().encode(new TextDecoder().decode(html).replace("</head>", `${metas.join("\n")}\n</head>`));
}
