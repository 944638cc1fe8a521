import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.js";
import { PASSWORD, registerUser } from "../support/fixtures.js";

// The deployed app's files named here (lib/src/…) are in https://github.com/Braian551/pingo/tree/35be6b2751ba54667ec1437fc46cd3a8ee79fd51.

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(() => app.close());

const login = (body: unknown) => app.legacy("POST", "/auth/login.php", body);

describe("POST /auth/login.php", () => {
  it("returns the user with location, a session token and when it expires", async () => {
    const user = await registerUser(app, { city: "Bogotá", latitude: 4.65, longitude: -74.05 });
    const before = Date.now();
    const response = await login({ email: user.email, password: PASSWORD });
    expect(response.status).toBe(200);
    expect(Object.keys(response.body).sort()).toEqual(["data", "location", "message", "success", "token", "token_expires_at", "user"]);
    // pingo's UserService.login reads the session under data (lib/src/global/services/auth/user_service.dart),
    // in its own words: LoginScreen routes by data.user.tipo_usuario ('cliente', 'conductor', 'administrador').
    expect(response.body.data).toEqual({
      user: { ...response.body.user, tipo_usuario: "cliente", es_activo: 1, es_verificado: 0 },
      location: response.body.user.location,
      token: response.body.token,
      token_expires_at: response.body.token_expires_at,
    });
    expect(response.body.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const expires = new Date(response.body.token_expires_at).getTime();
    expect(expires - before).toBeGreaterThanOrEqual(app.config.TOKEN_TTL_S * 1000 - 1000);
    expect(expires - Date.now()).toBeLessThanOrEqual(app.config.TOKEN_TTL_S * 1000);
    expect(response.body.user).toEqual(user);
    expect(response.body.user.location).toMatchObject({ ciudad: "Bogotá", latitud: 4.65, longitud: -74.05 });
  });

  it("accepts the e-mail in any case", async () => {
    const user = await registerUser(app);
    expect((await login({ email: user.email.toUpperCase(), password: PASSWORD })).status).toBe(200);
  });

  it("answers 401 for a wrong password", async () => {
    const user = await registerUser(app);
    const response = await login({ email: user.email, password: "Otra#Clave9" });
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ success: false, message: "La contraseña no es correcta" });
  });

  it("answers 404 for an unknown e-mail", async () => {
    const response = await login({ email: "nadie@example.com", password: PASSWORD });
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ success: false, message: "No existe un usuario con el correo nadie@example.com" });
  });

  it("answers 403 for an inactive account", async () => {
    const user = await registerUser(app);
    await app.db.user.update({ where: { id: user.id }, data: { es_activo: false } });
    const response = await login({ email: user.email, password: PASSWORD });
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ success: false, message: "La cuenta está inactiva" });
  });

  it("answers 403 for a suspended account, with the reason", async () => {
    const user = await registerUser(app);
    await app.db.user.update({
      where: { id: user.id },
      data: { fecha_suspension: new Date(), motivo_suspension: "Reportes de fraude" },
    });
    const response = await login({ email: user.email, password: PASSWORD });
    expect(response.status).toBe(403);
    expect(response.body.message).toBe("La cuenta está suspendida: Reportes de fraude");
  });

  it("does not reveal the account state to a wrong password", async () => {
    const user = await registerUser(app);
    await app.db.user.update({ where: { id: user.id }, data: { es_activo: false } });
    expect((await login({ email: user.email, password: "Otra#Clave9" })).status).toBe(401);
  });

  it.each([
    [{ password: PASSWORD }, "El campo 'email' es obligatorio"],
    [{ email: "a@b.co" }, "El campo 'password' es obligatorio"],
    [{ email: "a@b.co", password: "" }, "El campo 'password' no puede estar vacío"],
    [{ email: "sin-arroba", password: PASSWORD }, "El campo 'email' no es un correo electrónico válido"],
  ])("answers 400 for %j", async (body, message) => {
    const response = await login(body);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ success: false, message });
  });
});

describe("login over GraphQL", () => {
  const LOGIN = `mutation ($email: String!, $password: String!) {
    login(email: $email, password: $password) { __typename ... on Sesion { token user { id email } } ... on Error { code message } }
  }`;

  it("returns a session, or a typed error with the legacy status's meaning", async () => {
    const user = await registerUser(app);
    const ok = await app.graphql(LOGIN, { email: user.email, password: PASSWORD });
    expect(ok.data.login).toEqual({ __typename: "Sesion", token: expect.any(String), user: { id: user.id, email: user.email } });
    const wrong = await app.graphql(LOGIN, { email: user.email, password: "Otra#Clave9" });
    expect(wrong.data.login).toMatchObject({ __typename: "InvalidCredentialsError", code: "INVALID_CREDENTIALS" });
    const unknown = await app.graphql(LOGIN, { email: "nadie@example.com", password: PASSWORD });
    expect(unknown.data.login).toMatchObject({ __typename: "NotFoundError", code: "NOT_FOUND" });
    await app.db.user.update({ where: { id: user.id }, data: { es_activo: false } });
    const inactive = await app.graphql(LOGIN, { email: user.email, password: PASSWORD });
    expect(inactive.data.login).toMatchObject({ __typename: "AccountDisabledError", code: "ACCOUNT_DISABLED" });
  });
});
