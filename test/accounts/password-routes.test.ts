import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.js";
import { lastMailTo } from "../support/companies.js";
import { PASSWORD, registerUser, tableCounts, uniqueEmail } from "../support/fixtures.js";

/**
 * The password rule holds the same on every route that sets a password: signing up (legacy and
 * GraphQL), choosing one with a mailed code (an invitation or a reset) and changing one. A refused
 * password is a 400 that says why and how to choose a better one, and writes nothing.
 */

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp({ env: { EMAIL_CODES_PER_RECIPIENT: "3" } });
});
afterAll(() => app.close());

const GUESSABLE = "Password1!";
const WHY =
  /es fácil de adivinar.*; usa una frase de tres o cuatro palabras poco comunes que no tengan que ver contigo; no hacen falta mayúsculas, números ni símbolos$/;

const RESET = `mutation ($email: String!) {
  requestPasswordReset(email: $email) { __typename ... on MutationRequestPasswordResetSuccess { data } ... on Error { code message } }
}`;
const CHOOSE = `mutation ($email: String!, $codigo: String!, $password: String!) {
  choosePassword(email: $email, codigo: $codigo, password: $password) {
    __typename ... on Usuario { id } ... on ValidationError { field message }
  }
}`;
const CHANGE = `mutation ($actual: String!, $nueva: String!) {
  changePassword(actual: $actual, nueva: $nueva) { __typename ... on Sesion { token } ... on ValidationError { field message } }
}`;
const REGISTER = `mutation ($input: RegisterInput!) {
  register(input: $input) { __typename ... on Usuario { id } ... on ValidationError { field message } }
}`;

const codeIn = (body: string) => body.match(/\b([0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4})\b/)?.[1];
const login = (email: string, password: string) => app.legacy("POST", "/auth/login.php", { email, password });

describe("a password the rule refuses", () => {
  it("is refused by register.php with a 400 saying why, and no account is made", async () => {
    const before = await tableCounts(app);
    const email = uniqueEmail("debil");
    const response = await app.legacy("POST", "/auth/register.php", {
      email,
      password: GUESSABLE,
      name: "Camila",
      lastName: "Vélez",
      phone: "3001234567",
    });
    expect(response.status).toBe(400);
    expect(response.body.success).toBe(false);
    expect(response.body.message).toMatch(/^El campo 'password' /);
    expect(response.body.message).toMatch(WHY);
    expect(await tableCounts(app)).toEqual(before);
  });

  it("is refused when it is made of the person's own name, on register over GraphQL", async () => {
    const email = uniqueEmail("camila.velez");
    const input = { email, password: "CamilaVelez2024", nombre: "Camila", apellido: "Vélez", telefono: "3001234567" };
    const { data } = await app.graphql(REGISTER, { input });
    expect(data.register).toEqual({
      __typename: "ValidationError",
      field: "password",
      message: expect.stringMatching(
        /^El campo 'password' se parece demasiado a tu nombre o a tu correo, que otros conocen; usa una frase/,
      ),
    });
    expect(await app.db.user.count({ where: { email } })).toBe(0);
  });

  it("is refused by changePassword, which keeps the old password and every session", async () => {
    const user = await registerUser(app);
    const response = await app.graphql(CHANGE, { actual: PASSWORD, nueva: GUESSABLE }, user.id);
    expect(response.data.changePassword).toEqual({ __typename: "ValidationError", field: "nueva", message: expect.stringMatching(WHY) });
    expect((await login(user.email, PASSWORD)).status).toBe(200);
    const session = await app.graphql(`{ notifications { __typename } }`, {}, user.id);
    expect([session.status, session.errors]).toEqual([200, undefined]);
  });
});

describe("forgetting one's password", () => {
  it("mails a single-use code that chooses a new password under the same rule, and ends every session the account had", async () => {
    const user = await registerUser(app);
    const { token } = (await login(user.email, PASSWORD)).body;
    expect((await app.graphql(RESET, { email: user.email })).data.requestPasswordReset).toEqual({
      __typename: "MutationRequestPasswordResetSuccess",
      data: true,
    });
    const mail = await lastMailTo(app, user.email);
    expect(mail!.asunto).toBe("Crea tu contraseña · Viax");
    expect(mail!.cuerpo).toContain("Pediste elegir una contraseña nueva.");
    expect(mail!.cuerpo).toContain(`${app.server.deps.safety.publicUrl}/consola/`);
    const codigo = codeIn(mail!.cuerpo)!;

    // The rule first: the code is not spent on a refused password.
    expect((await app.graphql(CHOOSE, { email: user.email, codigo, password: GUESSABLE })).data.choosePassword).toEqual({
      __typename: "ValidationError",
      field: "password",
      message: expect.stringMatching(WHY),
    });
    const chosen = await app.graphql(CHOOSE, { email: user.email, codigo, password: "girasol ventana trueno" });
    expect(chosen.data.choosePassword).toEqual({ __typename: "Usuario", id: user.id });
    expect((await login(user.email, PASSWORD)).status).toBe(401);
    expect((await login(user.email, "girasol ventana trueno")).status).toBe(200);
    const old = await app.legacy("GET", "/auth/profile.php", { userId: String(user.id) }, { authorization: `Bearer ${token}` });
    expect(old.status).toBe(401);
    // Single use.
    expect((await app.graphql(CHOOSE, { email: user.email, codigo, password: "otra frase larga rara" })).data.choosePassword).toMatchObject(
      {
        field: "codigo",
      },
    );
  });

  it("answers the same for an address without an account, and mails nobody", async () => {
    const nobody = uniqueEmail("nadie");
    expect((await app.graphql(RESET, { email: nobody })).data.requestPasswordReset).toEqual({
      __typename: "MutationRequestPasswordResetSuccess",
      data: true,
    });
    expect(await lastMailTo(app, nobody)).toBeNull();
  });

  it("is limited per recipient, with the wait", async () => {
    const user = await registerUser(app);
    for (let i = 0; i < 3; i++) expect((await app.graphql(RESET, { email: user.email })).data.requestPasswordReset.data).toBe(true);
    expect((await app.graphql(RESET, { email: user.email })).data.requestPasswordReset).toEqual({
      __typename: "RateLimitError",
      code: "RATE_LIMITED",
      message: expect.stringMatching(/^Demasiados códigos enviados a este correo; intenta de nuevo en \d+ segundos$/),
    });
  });
});
