import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createSchema, createYoga } from "graphql-yoga";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useConsole } from "../../src/http/console.js";
import { createTestApp, type TestApp } from "../support/app.js";

const TILES = "https://{s}.tiles.example.co/{z}/{x}/{y}.png";

/** A console "build" of a few files, as Vite lays it out, beside a file it must never serve. */
function fakeBuild(): string {
  const root = mkdtempSync(join(tmpdir(), "consola-"));
  const dir = join(root, "consola");
  mkdirSync(join(dir, "assets"), { recursive: true });
  writeFileSync(
    join(dir, "index.html"),
    '<!doctype html><html><head><script type="module" src="/consola/assets/index-abc123.js"></script></head><body></body></html>',
  );
  writeFileSync(join(dir, "assets", "index-abc123.js"), "console.log('consola');");
  writeFileSync(join(dir, "favicon.svg"), "<svg xmlns='http://www.w3.org/2000/svg'/>");
  writeFileSync(join(root, "secret.txt"), "no");
  return root;
}

describe("the built console", () => {
  let root: string;
  let fetchPath: (path: string, init?: RequestInit) => Promise<Response>;
  beforeAll(() => {
    root = fakeBuild();
    const yoga = createYoga({
      schema: createSchema({ typeDefs: "type Query { ok: Boolean }" }),
      plugins: [useConsole({ dir: join(root, "consola"), tilesUrl: TILES })],
    });
    fetchPath = async (path, init) => yoga.fetch(new Request(`http://test${path}`, init));
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("serves index.html at /consola and /consola/ with a strict policy and the tile setting", async () => {
    for (const path of ["/consola", "/consola/"]) {
      const response = await fetchPath(path);
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
      const csp = response.headers.get("content-security-policy")!;
      expect(csp).toContain("default-src 'none'");
      expect(csp).toContain("script-src 'self';");
      expect(csp).toContain("style-src 'self';");
      expect(csp).toContain("img-src 'self' data: blob: https://*.tiles.example.co;");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(response.headers.get("x-content-type-options")).toBe("nosniff");
      expect(response.headers.get("referrer-policy")).toBe("no-referrer");
      expect(response.headers.get("x-frame-options")).toBe("DENY");
      const html = await response.text();
      expect(html).toContain(`<meta name="map-tiles" content="${TILES}">`);
    }
  });

  it("serves hashed assets with a long cache and client routes as the page", async () => {
    const asset = await fetchPath("/consola/assets/index-abc123.js");
    expect(asset.status).toBe(200);
    expect(asset.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(asset.headers.get("cache-control")).toContain("immutable");
    expect(await asset.text()).toBe("console.log('consola');");
    const route = await fetchPath("/consola/usuarios/12");
    expect(route.status).toBe(200);
    expect(await route.text()).toContain("<!doctype html>");
    expect((await fetchPath("/consola/favicon.svg")).headers.get("cache-control")).toBe("no-cache");
  });

  it("answers 404 for files it did not build and for paths that try to leave the folder", async () => {
    for (const path of [
      "/consola/assets/missing.js",
      "/consola/%2e%2e/secret.txt",
      "/consola/..%2fsecret.txt",
      "/consola/assets/..%2f..%2fsecret.txt",
      "/consola/%2e%2e%2f%2e%2e%2fpackage.json",
      "/consola/assets%5c..%5c..%5csecret.txt",
      "/consola/.env",
    ]) {
      const response = await fetchPath(path);
      expect(response.status, path).toBe(404);
      expect(await response.text()).not.toBe("no");
    }
  });

  it("leaves other methods to the rest of the service", async () => {
    const response = await fetchPath("/consola/", { method: "POST" });
    expect(response.status).toBe(404);
    expect(response.headers.get("content-security-policy")).toBeNull();
  });
});

describe("a service whose console is not built", () => {
  let app: TestApp;
  beforeAll(async () => {
    // The tests run the service from src/, where no console was ever built.
    app = await createTestApp();
  });
  afterAll(() => app.close());

  it("says in Spanish to run the build, not a server error", async () => {
    for (const path of ["/consola", "/consola/", "/consola/usuarios", "/consola/assets/index.js"]) {
      const response = await app.server.fetch(new Request(`http://test${path}`));
      expect(response.status, path).toBe(503);
      expect(response.headers.get("content-security-policy")).toContain("default-src 'none'");
      expect(await response.text()).toContain("npm run build");
    }
  });
});
