import { connect as tcp } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type GraphQLResponse, type TestApp } from "../support/app.js";

/** A fresh app for the enclosing describe block, built with the given environment. */
function appWith(env: Record<string, string> = {}) {
  const holder = {} as { app: TestApp };
  beforeAll(async () => {
    holder.app = await createTestApp({ env });
  });
  afterAll(() => holder.app.close());
  return holder;
}

const CHECK_USER = `userExists(email: "a@b.co") { __typename }`;
const aliased = (n: number) => `{ ${Array.from({ length: n }, (_, i) => `a${i}: ${CHECK_USER}`).join(" ")} }`;
/**
 * A valid document `depth` levels deep: a type's `ofType` nested in `__type`, which nests as deep as
 * one likes (the API's own types nest 5 levels at most).
 */
const nested = (depth: number) => `{ __type(name: "Query") { ${"ofType { ".repeat(depth - 2)}name${" }".repeat(depth - 2)} } }`;
/** The same document with each level in a fragment of its own, spread inside an inline fragment inside the level above. */
function nestedInFragments(depth: number) {
  const levels = Array.from(
    { length: depth - 2 },
    (_, i) => `fragment Nivel${i} on __Type { ... on __Type { ofType { ...Nivel${i + 1} } } }`,
  );
  return `{ __type(name: "Query") { ...Nivel0 } } ${levels.join(" ")} fragment Nivel${depth - 2} on __Type { name }`;
}
/**
 * A document 6 levels deep whose cost grows with `names`, the leaves of its deepest level: 600 cost
 * about 4,600, 700 about 5,350. Written with fragments, each holding a part of it, or inline.
 */
function costly(names: number, { fragments }: { fragments: boolean }) {
  const leaves = "name ".repeat(names);
  if (!fragments) return `{ __type(name: "Query") { fields { type { ofType { ofType { ${leaves}} } } } } }`;
  return `{ __type(name: "Query") { ...Campos } }
    fragment Campos on __Type { fields { type { ...Envoltura } } }
    fragment Envoltura on __Type { ofType { ofType { ...Hojas } } }
    fragment Hojas on __Type { ${leaves}}`;
}
const UNWRAPPED = { __type: { ofType: null } };
const LIMIT = 1024 * 1024;
const TOO_LARGE = {
  errors: [{ message: `El cuerpo de la petición supera el límite de ${LIMIT} bytes`, extensions: { code: "PAYLOAD_TOO_LARGE" } }],
};

/** The operation ran into an edge limit: an error naming it, no data and not one SQL statement. */
async function expectRefused(app: TestApp, query: string, message: string, code = "QUERY_TOO_COMPLEX") {
  const before = app.queries.length;
  const response = await app.graphql(query);
  expect(response.data).toBeUndefined();
  expect(response.errors).toContainEqual(expect.objectContaining({ message, extensions: expect.objectContaining({ code }) }));
  expect(app.queries.length).toBe(before);
}

const messages = (response: GraphQLResponse<unknown>) => (response.errors ?? []).map((e) => e.message).join("\n");

/** A JSON body of exactly `size` bytes carrying a small valid query followed by blanks. */
function paddedBody(size: number) {
  const empty = JSON.stringify({ query: "{ __typename }" });
  return JSON.stringify({ query: `{ __typename }${" ".repeat(size - empty.length)}` });
}

/** Sends raw bytes over a socket; the answer's status, lower-cased head and body (chunk framing left in). */
function rawHttp(port: number, request: string): Promise<{ status: number; head: string; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = tcp(port, "127.0.0.1", () => socket.write(request));
    const received: Buffer[] = [];
    socket.on("data", (chunk: Buffer) => received.push(chunk));
    socket.on("error", reject);
    socket.on("end", () => {
      const [head = "", ...rest] = Buffer.concat(received).toString("utf8").split("\r\n\r\n");
      resolve({ status: Number(head.split(" ")[1]), head: head.toLowerCase(), body: rest.join("\r\n\r\n") });
    });
  });
}

describe("GraphQL document limits with the default settings", () => {
  const ctx = appWith();

  it("accepts 15 aliases of a real field and runs them", async () => {
    const before = ctx.app.queries.length;
    const response = await ctx.app.graphql(aliased(15));
    expect(response.errors).toBeUndefined();
    expect(Object.keys(response.data)).toHaveLength(15);
    expect(ctx.app.queries.length).toBeGreaterThan(before);
  });

  it("refuses 16 aliases without running any of them", async () => {
    await expectRefused(ctx.app, aliased(16), "La consulta usa más de 15 alias");
  });

  it("refuses 1,000 aliases without running any of them", async () => {
    // At this size the token limit, checked while parsing, already refuses the document.
    await expectRefused(ctx.app, aliased(1000), "La consulta tiene más de 1000 elementos");
  });

  it("accepts a document 6 levels deep and refuses one of 7", async () => {
    const accepted = await ctx.app.graphql(nested(6));
    expect(accepted.errors).toBeUndefined();
    expect(accepted.data).toEqual(UNWRAPPED);
    await expectRefused(ctx.app, nested(7), "La consulta anida más de 6 niveles");
  });

  it("refuses a document 25 levels deep without running it", async () => {
    await expectRefused(ctx.app, nested(25), "La consulta anida más de 6 niveles");
  });

  it("counts a fragment as the fields it holds: 6 levels through fragments run, 7 or 25 do not", async () => {
    const accepted = await ctx.app.graphql(nestedInFragments(6));
    expect(accepted.errors).toBeUndefined();
    expect(accepted.data).toEqual(UNWRAPPED);
    await expectRefused(ctx.app, nestedInFragments(7), "La consulta anida más de 6 niveles");
    await expectRefused(ctx.app, nestedInFragments(25), "La consulta anida más de 6 niveles");
  });

  it("costs a document written with fragments as written inline: under the limit it runs, over it it does not", async () => {
    for (const fragments of [false, true]) {
      const accepted = await ctx.app.graphql(costly(600, { fragments }));
      expect(accepted.errors).toBeUndefined();
      expect(accepted.data).toEqual({ __type: { fields: expect.any(Array) } });
      await expectRefused(ctx.app, costly(700, { fragments }), "La consulta supera el costo máximo de 5000");
    }
  });

  it("refuses a document of about 1 MB, under the body limit, by its number of tokens", async () => {
    const query = `{ ${"__typename ".repeat(85_000)} }`;
    expect(JSON.stringify({ query }).length).toBeLessThan(LIMIT);
    await expectRefused(ctx.app, query, "La consulta tiene más de 1000 elementos");
  });
});

describe("GraphQL document limits with room for tokens and cost", () => {
  const ctx = appWith({ GRAPHQL_MAX_TOKENS: "100000", GRAPHQL_MAX_COST: "1000000" });

  it("refuses 1,000 aliases by the alias limit", async () => {
    await expectRefused(ctx.app, aliased(1000), "La consulta usa más de 15 alias");
  });

  it("refuses a document 25 levels deep by the depth limit, inline or through fragments", async () => {
    await expectRefused(ctx.app, nested(25), "La consulta anida más de 6 niveles");
    await expectRefused(ctx.app, nestedInFragments(25), "La consulta anida más de 6 niveles");
  });
});

describe("configured limits", () => {
  const ctx = appWith({ GRAPHQL_MAX_ALIASES: "2" });

  it("applies GRAPHQL_MAX_ALIASES", async () => {
    expect((await ctx.app.graphql(aliased(2))).errors).toBeUndefined();
    await expectRefused(ctx.app, aliased(3), "La consulta usa más de 2 alias");
  });
});

describe("the body limit", () => {
  const ctx = appWith();
  let base: string;
  beforeAll(async () => {
    base = `http://127.0.0.1:${(await ctx.app.server.start(0, "127.0.0.1")).port}`;
  });

  it("answers 413 with a GraphQL error to a body over 1 MB with a declared length", async () => {
    const body = paddedBody(LIMIT + 1);
    expect(Buffer.byteLength(body)).toBe(LIMIT + 1);
    const response = await fetch(`${base}/graphql`, { method: "POST", headers: { "content-type": "application/json" }, body });
    expect(response.status).toBe(413);
    expect(response.headers.get("content-type")).toMatch(/json/);
    expect(await response.json()).toEqual(TOO_LARGE);
  });

  const streamed = (body: string) => {
    const bytes = new TextEncoder().encode(body);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let at = 0; at < bytes.length; at += 64 * 1024) controller.enqueue(bytes.subarray(at, at + 64 * 1024));
        controller.close();
      },
    });
    const init = { method: "POST", headers: { "content-type": "application/json" }, body: stream, duplex: "half" };
    return ctx.app.server.fetch(new Request("http://test/graphql", init as RequestInit));
  };

  it("answers 413 to a body over 1 MB streamed without a declared length", async () => {
    const response = await streamed(paddedBody(LIMIT + 1));
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual(TOO_LARGE);
  });

  it("runs a streamed body within the limit", async () => {
    const response = await streamed(paddedBody(LIMIT));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ data: { __typename: "Query" } });
  });
});

describe("introspection and field suggestions", () => {
  const production = appWith({ NODE_ENV: "production" });
  const opened = appWith({ NODE_ENV: "production", GRAPHQL_INTROSPECTION: "true" });
  const testing = appWith();
  const INTROSPECTION = `{ __schema { types { name } } }`;
  const MISSPELLED = `{ userExist(email: "a@b.co") { __typename } }`;

  it("refuses introspection in production", async () => {
    const disabled = "La introspección del esquema está desactivada en este servidor";
    await expectRefused(production.app, INTROSPECTION, disabled, "INTROSPECTION_DISABLED");
    await expectRefused(production.app, `{ __type(name: "Query") { name } }`, disabled, "INTROSPECTION_DISABLED");
  });

  it("does not suggest field names in production", async () => {
    const response = await production.app.graphql(MISSPELLED);
    expect(messages(response)).toMatch(/userExist/);
    expect(messages(response)).not.toMatch(/Did you mean|userExists/);
  });

  it("allows introspection and suggestions in production when GRAPHQL_INTROSPECTION=true", async () => {
    const schema = await opened.app.graphql(INTROSPECTION);
    expect(schema.errors).toBeUndefined();
    expect(schema.data.__schema.types.map((t: { name: string }) => t.name)).toContain("Viaje");
    expect(messages(await opened.app.graphql(MISSPELLED))).toMatch(/Did you mean "userExists"/);
  });

  it("allows introspection outside production by default", async () => {
    const schema = await testing.app.graphql(INTROSPECTION);
    expect(schema.errors).toBeUndefined();
    expect(schema.data.__schema.types.length).toBeGreaterThan(10);
  });
});

describe("CORS", () => {
  const configured = appWith({ CORS_ORIGINS: "https://admin.example.co" });
  const unset = appWith();
  const ADMIN = "https://admin.example.co";
  const PATHS = ["/graphql", "/viajes/create_trip.php"];
  const preflight = (app: TestApp, path: string, origin: string) =>
    app.server.fetch(
      new Request(`http://test${path}`, {
        method: "OPTIONS",
        headers: { origin, "access-control-request-method": "POST", "access-control-request-headers": "authorization, content-type" },
      }),
    );

  it.each(PATHS)("lets a configured origin call %s with an Authorization header and no credentials", async (path) => {
    const response = await preflight(configured.app, path, ADMIN);
    expect(response.status).toBeLessThan(300);
    expect(response.headers.get("access-control-allow-origin")).toBe(ADMIN);
    expect(response.headers.get("access-control-allow-headers")?.toLowerCase()).toContain("authorization");
    expect(response.headers.get("access-control-allow-credentials")).not.toBe("true");
  });

  it.each(PATHS)("gives another origin no CORS grant on %s, preflight or not", async (path) => {
    const evil = "https://evil.example";
    expect((await preflight(configured.app, path, evil)).headers.get("access-control-allow-origin")).toBeNull();
    const body = path === "/graphql" ? { query: "{ __typename }" } : { usuario_id: 1 };
    const post = await configured.app.server.fetch(
      new Request(`http://test${path}`, {
        method: "POST",
        headers: { origin: evil, "content-type": "application/json" },
        body: JSON.stringify(body),
      }),
    );
    expect(post.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("allows no origin when CORS_ORIGINS is unset", async () => {
    for (const path of PATHS) expect((await preflight(unset.app, path, ADMIN)).headers.get("access-control-allow-origin")).toBeNull();
  });
});

describe("answers on the wire", () => {
  const ctx = appWith();
  let port: number;
  beforeAll(async () => {
    ({ port } = await ctx.app.server.start(0, "127.0.0.1"));
  });
  const json = { "content-type": "application/json" };

  it.each([
    ["a GraphQL POST", "/graphql", { method: "POST", headers: json, body: JSON.stringify({ query: "{ __typename }" }) }],
    ["a legacy call", "/auth/check_user.php", { method: "POST", headers: json, body: JSON.stringify({ email: "a@b.co" }) }],
    ["the health check", "/healthz", {}],
  ] as const)("marks %s as not sniffable nor cacheable", async (_, path, init) => {
    const response = await fetch(`http://127.0.0.1:${port}${path}`, init as RequestInit);
    expect(response.status).toBe(200);
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("cache-control")).toBe("no-store");
  });

  it("answers 400 JSON, without a stack trace, to a malformed Host header", async () => {
    const response = await rawHttp(port, "GET /graphql HTTP/1.1\r\nHost: exa mple\r\nConnection: close\r\n\r\n");
    expect(response.status).toBe(400);
    expect(response.head).toContain("content-type: application/json");
    const body = JSON.parse(response.body.slice(response.body.indexOf("{"), response.body.lastIndexOf("}") + 1));
    expect(body).toMatchObject({ success: false, message: expect.any(String) });
    expect(response.body).not.toMatch(/TypeError|at /);
  });

  it("answers 400 JSON to an upload path with malformed percent-encoding", async () => {
    const expected = { success: false, message: "La ruta del archivo no es válida" };
    const inProcess = await ctx.app.server.fetch(new Request("http://test/uploads/%E0%A4%A"));
    expect(inProcess.status).toBe(400);
    expect(await inProcess.json()).toEqual(expected);
    const overSocket = await fetch(`http://127.0.0.1:${port}/uploads/%E0%A4%A`);
    expect(overSocket.status).toBe(400);
    expect(await overSocket.json()).toEqual(expected);
  });
});
