import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.js";
import { PASSWORD, registerUser, tableCounts, uniqueEmail } from "../support/fixtures.js";

/**
 * The password rule holds the same on every route that sets a password: signing up (legacy and
 * GraphQL) and changing one (choosing one with a mailed code: test/companies/joining.test.ts). A refused
 * password is a 400 that says why and how to choose a better one, and writes nothing.
 */

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(() => app.close());

const GUESSABLE = "Password1!";
const WHY =
  /es fácil de adivinar.*; usa una frase de tres o cuatro palabras poco comunes que no tengan que ver contigo; no hacen falta mayúsculas, números ni símbolos$/;

const CHANGE = `mutation ($actual: String!, $nueva: String!) {
  changePassword(actual: $actual, nueva: $nueva) { __typename ... on Sesion { token } ... on ValidationError { field message } }
}`;
const REGISTER = `mutation ($input: RegisterInput!) {
  register(input: $input) { __typename ... on Usuario { id } ... on ValidationError { field message } }
}`;

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
