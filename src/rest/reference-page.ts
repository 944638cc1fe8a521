import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { Plugin } from "graphql-yoga";
import { failure } from "../http/failure.js";
import { Response } from "../http/response.js";
import { openApiDocument } from "./openapi.js";
import type { LegacyRoute } from "./route.js";

const OPENAPI_PATH = "/openapi.json";
const DOCS_PATH = "/docs";
const ASSETS_PATH = `${DOCS_PATH}/assets/`;

/** Swagger UI's files, served from node_modules: the page loads nothing from another host. */
const SWAGGER_UI = dirname(createRequire(import.meta.url).resolve("swagger-ui-dist/package.json"));

/** The only files served under /docs/assets/: a fixed list, so no request path ever reaches the disk. */
const ASSET_TYPES: Record<string, string> = {
  "swagger-ui.css": "text/css; charset=utf-8",
  "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
  "favicon-32x32.png": "image/png",
};

// Its own file rather than an inline script, so that a Content-Security-Policy of 'self' admits the page.
// validatorUrl: null, or Swagger UI sends the document to validator.swagger.io for its badge.
const INIT_SCRIPT = `window.ui = SwaggerUIBundle({
  url: ${JSON.stringify(OPENAPI_PATH)},
  dom_id: "#swagger-ui",
  deepLinking: true,
  validatorUrl: null,
  presets: [SwaggerUIBundle.presets.apis],
  layout: "BaseLayout",
});
`;

const PAGE = `<!doctype html>
<html lang="es">
<head>
  <meta charset="utf-8">
  <title>Ride-hailing legacy API</title>
  <link rel="stylesheet" href="${ASSETS_PATH}swagger-ui.css">
  <link rel="icon" type="image/png" href="${ASSETS_PATH}favicon-32x32.png">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="${ASSETS_PATH}swagger-ui-bundle.js"></script>
  <script src="${ASSETS_PATH}init.js"></script>
</body>
</html>
`;

const cached = (type: string) => ({ "content-type": type, "cache-control": "public, max-age=3600" });

/**
 * GET /openapi.json (the legacy interface's OpenAPI document, built once from the route table)
 * and GET /docs (a Swagger UI reference page of it), as a Yoga plugin.
 */
export function useApiDocs(routes: LegacyRoute[]): Plugin {
  // Built here, not on the first request: a route the generator cannot describe fails at start, in the tests.
  const document = JSON.stringify(openApiDocument(routes));
  const assets = new Map<string, Promise<Buffer>>();

  function asset(name: string): Promise<Response> | Response {
    const type = Object.hasOwn(ASSET_TYPES, name) ? ASSET_TYPES[name] : undefined;
    if (name === "init.js") return new Response(INIT_SCRIPT, { headers: cached("text/javascript; charset=utf-8") });
    if (!type) return failure(404, `No existe el archivo ${name}`);
    if (!assets.has(name)) assets.set(name, readFile(join(SWAGGER_UI, name)));
    return assets.get(name)!.then((bytes) => new Response(new Uint8Array(bytes), { headers: cached(type) }));
  }

  return {
    onRequest({ request, url, endResponse }) {
      if (request.method !== "GET" && request.method !== "HEAD") return;
      if (url.pathname === OPENAPI_PATH)
        endResponse(new Response(document, { headers: { "content-type": "application/json; charset=utf-8" } }));
      else if (url.pathname === DOCS_PATH || url.pathname === `${DOCS_PATH}/`) {
        endResponse(new Response(PAGE, { headers: { "content-type": "text/html; charset=utf-8" } }));
      } else if (url.pathname.startsWith(ASSETS_PATH))
        return Promise.resolve(asset(url.pathname.slice(ASSETS_PATH.length))).then(endResponse);
    },
  };
}
