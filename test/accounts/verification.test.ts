import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.js";
import { FixedClock } from "../support/clock.js";
import { latestCode, registerUser } from "../support/fixtures.js";

let app: TestApp;
const clock = new FixedClock();
beforeAll(async () => {
  app = await createTestApp({ clock });
});
afterAll(() => app.close());

const VERIFY = `mutation ($email: String!, $codigo: String!) {
  verifyEmail(email: $email, codigo: $codigo) {
    __typename ... on Usuario { es_verificado } ... on Error { code message }
  }
}`;
const RESEND = `mutation ($email: String!) {
  resendVerificationCode(email: $email) { __typename ... on Error { code message } }
}`;

const verify = async (email: string, codigo: string) => (await app.graphql(VERIFY, { email, codigo })).data.verifyEmail;
const resend = async (email: string) => (await app.graphql(RESEND, { email })).data.resendVerificationCode;

describe("e-mail verification", () => {
  it("marks the account verified with the code from the mail", async () => {
    const user = await registerUser(app);
    expect(await verify(user.email, await latestCode(app, user.email))).toEqual({ __typename: "Usuario", es_verificado: true });
    const row = await app.db.user.findUniqueOrThrow({ where: { id: user.id } });
    expect(row.es_verificado).toBe(true);
    const notice = await app.db.notification.findFirst({ where: { usuario_id: user.id, tipo: "cuenta_verificada" } });
    expect(notice).not.toBeNull();
  });

  it("refuses a wrong code and, after five tries, the right one too", async () => {
    const user = await registerUser(app);
    const code = await latestCode(app, user.email);
    const wrong = code === "000000" ? "111111" : "000000";
    expect(await verify(user.email, wrong)).toEqual({
      __typename: "ValidationError",
      code: "VALIDATION",
      message: "El campo 'codigo' no es correcto",
    });
    for (let i = 0; i < 4; i++) await verify(user.email, wrong);
    expect(await verify(user.email, code)).toMatchObject({ __typename: "RateLimitError", code: "RATE_LIMITED" });
  });

  it("refuses a code after its 10 minutes", async () => {
    const user = await registerUser(app);
    const code = await latestCode(app, user.email);
    clock.advance(10 * 60 * 1000);
    expect(await verify(user.email, code)).toMatchObject({ __typename: "ValidationError", code: "VALIDATION" });
  });

  it("accepts a code just before it expires", async () => {
    const user = await registerUser(app);
    const code = await latestCode(app, user.email);
    clock.advance(10 * 60 * 1000 - 1);
    expect(await verify(user.email, code)).toMatchObject({ es_verificado: true });
  });

  it("checks the code's shape", async () => {
    const user = await registerUser(app);
    expect(await verify(user.email, "12ab")).toMatchObject({ message: "El campo 'codigo' debe tener 6 dígitos" });
  });

  it("sends a new code at most once a minute and voids the old one", async () => {
    const user = await registerUser(app);
    const first = await latestCode(app, user.email);
    expect(await resend(user.email)).toMatchObject({
      __typename: "RateLimitError",
      message: "Espera 60 segundos antes de pedir otro código",
    });
    clock.advance(61_000);
    expect(await resend(user.email)).toEqual({ __typename: "MutationResendVerificationCodeSuccess" });
    const second = await latestCode(app, user.email);
    if (first !== second) expect(await verify(user.email, first)).toMatchObject({ code: "VALIDATION" });
    expect(await verify(user.email, second)).toMatchObject({ es_verificado: true });
    expect(await resend(user.email)).toMatchObject({ __typename: "InvalidStateError", message: "La cuenta ya está verificada" });
  });

  it("answers not found for an unknown address", async () => {
    expect(await resend("nadie@example.com")).toMatchObject({ code: "NOT_FOUND" });
    expect(await verify("nadie@example.com", "123456")).toMatchObject({ code: "NOT_FOUND" });
  });
});
