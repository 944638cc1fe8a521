import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { legacyRoutes } from "../../src/rest/routes/index.js";
import { createTestApp, type TestApp, type LegacyResponse } from "../support/app.js";
import { PASSWORD, registerUser, uniqueEmail } from "../support/fixtures.js";
import { DOCUMENT, compile as compileIn, problems, responseSchema as responseSchemaIn } from "../support/openapi.js";
import { ESTADIO, LLERAS } from "../support/trips.js";

let app: TestApp;
let doc: any;
beforeAll(async () => {
  app = await createTestApp();
  const response = await get("/openapi.json");
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toMatch(/^application\/json\b/);
  doc = await response.json();
  // What the tests check every answer against is what the server serves.
  expect(doc).toEqual(DOCUMENT);
});
afterAll(() => app.close());

const get = (path: string) => app.server.fetch(new Request(`http://test${path}`));

/** The served document's schemas, compiled by the strict validator every legacy answer of the tests goes through. */
const compile = (schema: object) => compileIn(schema, doc);

const operationOf = (method: string, path: string) => {
  const operation = doc.paths[path]?.[method.toLowerCase()];
  expect(operation, `${method} ${path} is not in the document`).toBeDefined();
  return operation;
};

function responseSchema(method: string, path: string, status: number) {
  operationOf(method, path);
  const schema = responseSchemaIn(method, path, status, doc);
  expect(schema, `${method} ${path} documents no ${status}`).toBeDefined();
  return schema;
}

/** Fails with ajv's errors when the body is not what the document says `method path` answers with `status`. */
function expectDocumented(method: string, path: string, { status, body }: LegacyResponse) {
  const validate = compile(responseSchema(method, path, status));
  expect(validate(body), `${method} ${path} ${status} ${JSON.stringify(body)}: ${problems(validate.errors)}`).toBe(true);
}

/** The same for what is sent: the request body (or, for GET, the query fields as one object). */
function expectAccepted(method: string, path: string, input: Record<string, unknown>) {
  const operation = operationOf(method, path);
  const schema =
    method === "GET"
      ? {
          type: "object",
          properties: Object.fromEntries(operation.parameters.map((p: any) => [p.name, p.schema])),
          required: operation.parameters.filter((p: any) => p.required).map((p: any) => p.name),
        }
      : operation.requestBody.content["application/json"].schema;
  const validate = compile(schema);
  expect(validate(input), `${method} ${path} refuses ${JSON.stringify(input)}: ${problems(validate.errors)}`).toBe(true);
}

/** A legacy call whose input and answer must both match the document. */
async function call(method: string, path: string, input: Record<string, unknown>) {
  const response = await app.legacy(method, path, input);
  expectAccepted(method, path, input);
  expectDocumented(method, path, response);
  return response;
}

describe("GET /openapi.json", () => {
  it("is an OpenAPI 3.1 document with every route, at its path and each of its aliases, under its method", () => {
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.info).toMatchObject({ title: "Ride-hailing legacy API", version: expect.any(String) });
    expect(doc.servers).toEqual([{ url: "/" }]);
    const expected = legacyRoutes.flatMap((route) =>
      [route.path, ...(route.aliases ?? [])].map((path) => `${route.method.toLowerCase()} ${path}`),
    );
    const documented = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.keys(item as object).map((method) => `${method} ${path}`),
    );
    expect(documented.sort()).toEqual([...new Set(expected)].sort());
    for (const route of legacyRoutes) {
      const canonical = operationOf(route.method, route.path);
      for (const alias of route.aliases ?? []) {
        expect(operationOf(route.method, alias).description).toContain(route.path);
        expect(operationOf(route.method, alias).operationId).not.toBe(canonical.operationId);
      }
    }
    const ids = Object.values(doc.paths).flatMap((item) => Object.values(item as object).map((operation) => operation.operationId));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("holds only schemas a strict JSON Schema 2020-12 validator compiles", () => {
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      for (const [method, operation] of Object.entries<any>(item)) {
        const schemas = [
          ...(operation.parameters ?? []).map((p: any) => p.schema),
          ...Object.values<any>(operation.requestBody?.content ?? {}).map((media) => media.schema),
          ...Object.keys(operation.responses).map((status) => responseSchema(method, path, Number(status))),
        ];
        for (const schema of schemas) expect(() => compile(schema), `${method} ${path}`).not.toThrow();
      }
    }
  });

  it("documents GET input as query parameters and file uploads as multipart with a binary part", () => {
    const profile = operationOf("GET", "/auth/profile.php");
    expect(profile.requestBody).toBeUndefined();
    expect(profile.parameters.map((p: any) => [p.name, p.in, p.required])).toEqual([
      ["userId", "query", false],
      ["email", "query", false],
    ]);
    const upload = operationOf("POST", "/conductor/upload_documents.php").requestBody.content["multipart/form-data"].schema;
    expect(upload.properties.documento).toMatchObject({ type: "string", format: "binary" });
    const form = compile(upload);
    expect(form({ conductor_id: "7", tipo_documento: "soat", documento: "(bytes)" })).toBe(true);
    expect(form({ conductor_id: "7", tipo_documento: "soat" })).toBe(false);
    expect(form({ tipo_documento: "soat", documento: "(bytes)" })).toBe(false);
  });

  it("says what a non-public call needs in its description and a public one does not", () => {
    expect(operationOf("GET", "/auth/profile.php").description).toContain("`userId` names the caller");
    expect(operationOf("POST", "/auth/login.php").description).toContain("Public");
    expect(operationOf("POST", "/auth/login.php").description).not.toContain("names the caller");
  });

  it("documents every alternate spelling and ignored field of a route as a field it accepts", () => {
    for (const route of legacyRoutes) {
      const operation = operationOf(route.method, route.path);
      const accepted =
        route.method === "GET"
          ? operation.parameters.map((p: any) => p.name)
          : Object.keys(Object.values<any>(operation.requestBody.content)[0].schema.properties ?? {});
      expect(accepted).toEqual(expect.arrayContaining([...Object.keys(route.spellings ?? {}), ...(route.ignored ?? [])]));
    }
  });

  it("refuses, through the same validator, answers the document does not allow", () => {
    // The checks below are only worth something if a wrong body fails them.
    const failure = compile(responseSchema("POST", "/auth/login.php", 400));
    expect(failure({ success: false })).toBe(false);
    expect(failure({ success: true, message: "x" })).toBe(false);
    const ok = compile(responseSchema("POST", "/auth/login.php", 200));
    expect(ok({ success: "yes" })).toBe(false);
    const distance = compile(operationOf("POST", "/map/calculate_distance.php").requestBody.content["application/json"].schema);
    expect(distance({ origin: { latitud: "6.2", longitud: -75.5 }, destination: { latitud: 6.2, longitud: "-75.5" } })).toBe(true);
    expect(distance({ origin: { latitud: "seis", longitud: -75.5 }, destination: ESTADIO })).toBe(false);
    expect(distance({ origin: LLERAS })).toBe(false);
  });
});

describe("real answers match the document", () => {
  it("register, check_user, login and profile", async () => {
    const email = uniqueEmail();
    const registered = await call("POST", "/auth/register.php", {
      email,
      password: PASSWORD,
      name: "Ana",
      lastName: "Restrepo",
      phone: 3001234567,
    });
    expect(registered.status).toBe(200);
    expect((await call("POST", "/auth/check_user.php", { email })).body.exists).toBe(true);
    const login = await call("POST", "/auth/login.php", { email, password: PASSWORD });
    expect(login.status).toBe(200);
    expect(login.body.token).toEqual(expect.any(String));
    const profile = await call("GET", "/auth/profile.php", { userId: String(registered.body.user.id) });
    expect(profile.status).toBe(200);
  });

  it("failures: a missing field (400), a wrong password (401), the wrong method (405)", async () => {
    const missing = await app.legacy("POST", "/auth/login.php", { email: uniqueEmail() });
    expect(missing.status).toBe(400);
    expectDocumented("POST", "/auth/login.php", missing);
    expect(() => expectAccepted("POST", "/auth/login.php", { email: uniqueEmail() })).toThrow(/password/);
    const user = await registerUser(app);
    const wrong = await app.legacy("POST", "/auth/login.php", { email: user.email, password: "Otra#Clave2" });
    expect(wrong.status).toBe(401);
    expectDocumented("POST", "/auth/login.php", wrong);
    const method = await app.legacy("GET", "/auth/check_user.php", { email: uniqueEmail() });
    expect(method.status).toBe(405);
    // Answered for the path whatever the method: the document says so under the method it takes.
    expectDocumented("POST", "/auth/check_user.php", method);
  });

  it("a map call, with numbers sent as text", async () => {
    const response = await call("POST", "/map/calculate_distance.php", {
      origin: { ...LLERAS, latitud: String(LLERAS.latitud) },
      destination: ESTADIO,
    });
    expect(response.status).toBe(200);
    expect(response.body.success).toBe(true);
  });

  it("a trip request with no driver around: 200 with success false", async () => {
    const passenger = await call("POST", "/auth/register.php", {
      email: uniqueEmail(),
      password: PASSWORD,
      name: "Ana",
      lastName: "R",
      phone: "3001234567",
    });
    const trip = await call("POST", "/viajes/create_trip.php", {
      usuario_id: passenger.body.user.id,
      tipo_servicio: "auto",
      origen: LLERAS,
      destino: ESTADIO,
    });
    expect(trip.status).toBe(200);
    expect(trip.body.success).toBe(false);
  });
});

describe("GET /docs", () => {
  it("is a page that loads nothing from another host, and whose files are all served", async () => {
    const response = await get("/docs");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/html\b/);
    const html = await response.text();
    // No absolute or protocol-relative URL anywhere in the page.
    expect(html.match(/(?:[a-z][a-z0-9+.-]*:)?\/\/[^\s"'<>]*/gi)).toBeNull();
    const references = [...html.matchAll(/\b(?:src|href)="([^"]+)"/g)].map((match) => match[1]!);
    expect(references.length).toBeGreaterThanOrEqual(3);
    for (const reference of references) {
      const asset = await get(new URL(reference, "http://test/docs").pathname);
      expect(asset.status, reference).toBe(200);
      if (reference.endsWith(".js")) expect(asset.headers.get("content-type"), reference).toMatch(/^text\/javascript\b/);
      if (reference.endsWith(".css")) expect(asset.headers.get("content-type"), reference).toMatch(/^text\/css\b/);
    }
    // The page's own script points Swagger UI at this server's document, and nowhere else.
    const init = await (await get(references.find((reference) => reference.endsWith("init.js"))!)).text();
    expect(init).toContain('"/openapi.json"');
    expect(init.match(/(?:https?:)?\/\/[^\s"'<>]*/gi)).toBeNull();
  });

  it("serves no file of the package outside its list", async () => {
    expect((await get("/docs/assets/package.json")).status).toBe(404);
    expect((await get("/docs/assets/..%2F..%2Fpackage.json")).status).toBe(404);
    expect((await get("/docs/assets/constructor")).status).toBe(404);
  });
});
