import { afterEach, describe, expect, it } from "vitest";
import { renderGraphiQL as cdnPage } from "graphql-yoga";
import { createTestApp, type TestApp } from "../support/app.js";

let app: TestApp | undefined;
afterEach(() => app?.close());

const page = async (env: Record<string, string> = {}) => {
  app = await createTestApp({ env });
  return app.server.fetch(new Request("http://test/graphql", { headers: { accept: "text/html" } }));
};

/**
 * Everything in the page that makes a browser fetch something from another host: an element's
 * source or link, a stylesheet's url() or @import, a worker's or module's import.
 */
const EXTERNAL_LOAD = [
  /\b(?:src|href|action)\s*=\s*["']?\s*(?:https?:)?\/\/[^"'\s>]*/,
  /url\(\s*["']?\s*(?:https?:)?\/\/[^)]*/,
  /@import[^;]*/,
  /importScripts\([^)]*/,
  /import\(\s*["'][^"']*/,
]
  .map((part) => part.source)
  .join("|");
const externalLoads = (html: string) => html.match(new RegExp(EXTERNAL_LOAD, "gi")) ?? [];

describe("GraphiQL", () => {
  it("is one page with its scripts and styles inline, loading nothing from another host", async () => {
    const response = await page();
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/html");
    const html = await response.text();
    expect(html).toContain("<title>Ride-hailing GraphQL</title>");
    expect(html).toContain("renderYogaGraphiQL");
    expect(externalLoads(html)).toEqual([]);
  });

  it("is told to run subscriptions over WebSocket", async () => {
    const html = await (await page()).text();
    expect(html).toMatch(/"subscriptionsProtocol":"WS"/);
  });

  it("the check above catches a page that loads GraphiQL from a CDN", () => {
    expect(externalLoads(cdnPage({ title: "x" })).length).toBeGreaterThan(0);
  });

  it("is off in production unless GRAPHIQL=true; the API itself still answers", async () => {
    const production = { NODE_ENV: "production", URL_SIGNING_SECRET: "s".repeat(32) };
    const off = await page(production);
    expect(await off.text()).not.toContain("renderYogaGraphiQL");
    const query = await app!.graphql("{ __typename }");
    expect(query.data).toEqual({ __typename: "Query" });
    await app!.close();
    const on = await page({ ...production, GRAPHIQL: "true" });
    expect(on.status).toBe(200);
    expect(await on.text()).toContain("renderYogaGraphiQL");
  });

  it("can be turned off outside production with GRAPHIQL=false", async () => {
    expect(await (await page({ GRAPHIQL: "false" })).text()).not.toContain("renderYogaGraphiQL");
  });
});
