import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { GraphQLError } from "graphql";
import { databaseOutage } from "../../src/domain/outage.js";
import { schema } from "../../src/graphql/schema.js";
import { legacyShim } from "../../src/rest/shim.js";
import { defineRoute, operation } from "../../src/rest/route.js";
import { createTestApp, type TestApp } from "../support/app.js";
import { registerUser } from "../support/fixtures.js";

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(() => app.close());

const expectFailure = (response: { status: number; body: any }, status: number, message: string | RegExp) => {
  expect(response.status).toBe(status);
  expect(response.body.success).toBe(false);
  expect(response.body.message).toMatch(message);
  expect(Object.keys(response.body).sort()).toEqual(["message", "success"]);
};

describe("the legacy shim", () => {
  it("answers 404 for an unknown .php path", async () => {
    expectFailure(await app.legacy("GET", "/viajes/no_existe.php"), 404, "No existe la ruta /viajes/no_existe.php");
    expectFailure(await app.legacy("POST", "/nada.php", {}), 404, /No existe la ruta/);
  });

  it("answers 405 for a known path with another method, naming the allowed ones", async () => {
    const response = await app.legacy("GET", "/auth/login.php");
    expectFailure(response, 405, "La ruta /auth/login.php no admite el método GET; use POST");
    expect(response.headers.get("allow")).toBe("POST");
    expectFailure(await app.legacy("DELETE", "/auth/profile.php", {}), 405, /use GET/);
  });

  it("answers 400 for malformed JSON and for bodies that are not objects", async () => {
    expectFailure(await app.legacy("POST", "/auth/login.php", '{"email":'), 400, "El cuerpo de la petición no es JSON válido");
    for (const body of ["[1,2]", "null", "42", '"texto"', "true"]) {
      expectFailure(await app.legacy("POST", "/auth/login.php", body), 400, "El cuerpo de la petición debe ser un objeto JSON");
    }
  });

  it("treats an empty body as no fields", async () => {
    expectFailure(await app.legacy("POST", "/auth/login.php", ""), 400, "El campo 'email' es obligatorio");
  });

  it("answers 413 for a body over the limit, declared or not", async () => {
    const big = JSON.stringify({ email: "a@b.co", password: "x".repeat(1024 * 1024) });
    expectFailure(await app.legacy("POST", "/auth/login.php", big), 413, /supera el límite/);
    const stream = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(big));
        controller.close();
      },
    });
    const response = await app.server.fetch(
      new Request("http://test/auth/login.php", { method: "POST", body: stream, duplex: "half" } as RequestInit),
    );
    expect(response.status).toBe(413);
  });

  it("reads GET parameters from the query string and accepts numbers sent as text in JSON", async () => {
    const user = await registerUser(app);
    expect((await app.legacy("GET", "/auth/profile.php", { userId: String(user.id) })).status).toBe(200);
    const update = await app.legacy("POST", "/auth/profile_update.php", { userId: String(user.id), lat: "6.1", lng: "-75.2" });
    expect(update.status).toBe(200);
    expect(update.body.user.location).toMatchObject({ latitud: 6.1, longitud: -75.2 });
  });

  it("refuses fields it does not know when they are all the call carries, and never lets them change the role", async () => {
    const user = await registerUser(app);
    const alone = await app.legacy("POST", "/auth/profile_update.php", { userId: user.id, rol: "admin", tipo_usuario: "admin" });
    expect(alone.status).toBe(400);
    expect(alone.body.message).toMatch(/^Los campos 'rol', 'tipo_usuario' no existen en esta llamada; admite: userId, name/);
    const withData = await app.legacy("POST", "/auth/profile_update.php", { userId: user.id, name: "Ana", tipo_usuario: "admin" });
    expect(withData.status).toBe(200);
    expect(withData.body.user).toMatchObject({ nombre: "Ana", tipo_usuario: "pasajero" });
  });

  it("refuses an update that sends nothing to change instead of answering success", async () => {
    const user = await registerUser(app);
    const empty = await app.legacy("POST", "/auth/profile_update.php", { userId: user.id });
    expect(empty.status).toBe(400);
    expect(empty.body.message).toMatch(/^No se envió ningún dato para cambiar/);
  });

  it("never answers 500 to odd input", async () => {
    const odd = [
      ["POST", "/auth/login.php", { email: ["a@b.co"], password: { $gt: "" } }],
      ["POST", "/auth/register.php", { email: null, password: null, name: null, lastName: null, phone: null }],
      ["POST", "/auth/profile_update.php", { userId: 1e30 }],
      ["POST", "/auth/profile_update.php", { userId: -4 }],
      ["GET", "/auth/profile.php", { userId: "1.5" }],
      ["GET", "/auth/profile.php", { email: "%00" }],
      ["POST", "/auth/check_user.php", { email: `${"a".repeat(5000)}@x.co` }],
    ] as const;
    for (const [method, path, body] of odd) {
      const response = await app.legacy(method, path, body);
      expect(response.status, `${path} ${JSON.stringify(body)}`).toBeGreaterThanOrEqual(400);
      expect(response.status).toBeLessThan(500);
      expect(response.body.success).toBe(false);
    }
  });

  it("refuses at build time a route whose document does not fit the schema", () => {
    const broken = defineRoute({
      method: "GET",
      path: "/x/y.php",
      summary: "Una ruta rota",
      input: z.object({}),
      document: operation(`query { noSuchField { ...LegacyError } }`),
      variables: () => ({}),
      output: z.object({}),
      respond: () => ({}),
    });
    expect(() =>
      legacyShim([broken], {
        schema,
        log: app.server.deps.log,
        bodyLimit: 10,
        multipartLimit: 10,
        countError: () => {},
        database: databaseOutage(app.server.deps.log, async () => undefined),
        unsigned: () => null,
        context: () => Promise.reject(new Error("no call runs")),
        mask: (error) => new GraphQLError(String(error)),
        measure: () => () => {},
      }),
    ).toThrow(/noSuchField/);
  });
});
