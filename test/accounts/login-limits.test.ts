import { setTimeout as delay } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.js";
import { PASSWORD, registerUser } from "../support/fixtures.js";

const WRONG = "Otra#Clave9";

describe("wrong passwords for one e-mail", () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(() => app.close());

  const login = (email: string, password: string) => app.legacy("POST", "/auth/login.php", { email, password });

  it("are answered 401 ten times, then 429 with Retry-After, even for the right password", async () => {
    const user = await registerUser(app);
    for (let attempt = 1; attempt <= 10; attempt++) expect((await login(user.email, WRONG)).status, `attempt ${attempt}`).toBe(401);
    const locked = await login(user.email, PASSWORD);
    expect(locked.status).toBe(429);
    expect(locked.body).toEqual({
      success: false,
      message: expect.stringMatching(/^Demasiados intentos fallidos con esta cuenta; intenta de nuevo en \d+ segundos$/),
    });
    const retryAfter = Number(locked.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(890);
    expect(retryAfter).toBeLessThanOrEqual(900);
    // Another account is not held back by this one.
    const other = await registerUser(app);
    expect((await login(other.email, PASSWORD)).status).toBe(200);
  });

  it("count 50 simultaneous guesses: at most 10 are checked", async () => {
    const user = await registerUser(app);
    const answers = await Promise.all(Array.from({ length: 50 }, () => login(user.email, WRONG)));
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 401)).toHaveLength(10);
    expect(statuses.filter((status) => status === 429)).toHaveLength(40);
  });

  it("are forgotten after a successful login", async () => {
    const user = await registerUser(app);
    for (let attempt = 0; attempt < 9; attempt++) await login(user.email, WRONG);
    expect((await login(user.email, PASSWORD)).status).toBe(200);
    for (let attempt = 0; attempt < 10; attempt++) expect((await login(user.email, WRONG)).status).toBe(401);
  });

  it("answer RateLimitError with the wait on GraphQL too", async () => {
    const user = await registerUser(app);
    const LOGIN = `mutation ($e: String!, $p: String!) {
      login(email: $e, password: $p) { __typename ... on RateLimitError { message retry_after_s } }
    }`;
    for (let attempt = 0; attempt < 10; attempt++) await app.graphql(LOGIN, { e: user.email, p: WRONG });
    const { data } = await app.graphql(LOGIN, { e: user.email, p: PASSWORD });
    expect(data.login).toEqual({
      __typename: "RateLimitError",
      message: expect.stringMatching(/^Demasiados intentos fallidos/),
      retry_after_s: expect.any(Number),
    });
    expect(data.login.retry_after_s).toBeGreaterThan(0);
  });
});

describe("the login window", () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp({ env: { LOGIN_MAX_FAILURES: "2", LOGIN_FAILURE_WINDOW_S: "1" } });
  });
  afterAll(() => app.close());

  it("reopens when it ends", async () => {
    const user = await registerUser(app);
    const login = (password: string) => app.legacy("POST", "/auth/login.php", { email: user.email, password });
    await login(WRONG);
    await login(WRONG);
    expect((await login(PASSWORD)).status).toBe(429);
    await delay(1100);
    expect((await login(PASSWORD)).status).toBe(200);
  });
});

describe("login attempts from one address", () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp({ env: { LOGIN_MAX_PER_ADDRESS: "5", TRUST_PROXY_HOPS: "1" } });
  });
  afterAll(() => app.close());

  const from = (address: string, email: string) =>
    app.legacy("POST", "/auth/login.php", { email, password: WRONG }, { "x-forwarded-for": `10.0.0.1, ${address}` });

  it("are limited whatever e-mails they try, and other addresses are not", async () => {
    for (let attempt = 0; attempt < 5; attempt++) expect((await from("198.51.100.20", `nadie${attempt}@example.com`)).status).toBe(404);
    const refused = await from("198.51.100.20", "otro@example.com");
    expect(refused.status).toBe(429);
    expect(refused.body.message).toMatch(/^Demasiados intentos de inicio de sesión desde tu conexión/);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    // The proxy's own address is the client's claim; the address it saw is what counts.
    expect((await from("198.51.100.21", "otro@example.com")).status).toBe(404);
  });
});
