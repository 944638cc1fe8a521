import { createHash } from "node:crypto";
import { setTimeout as delay } from "node:timers/promises";
import type { Client } from "graphql-ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.js";
import { FixedClock } from "../support/clock.js";
import { newAdmin } from "../support/drivers.js";
import { PASSWORD, registerUser } from "../support/fixtures.js";
import { connect, subscribe } from "../support/ws.js";

const TTL_S = 3600;
const clock = new FixedClock("2026-03-10T15:00:00Z");
let app: TestApp;
beforeAll(async () => {
  app = await createTestApp({ clock, env: { TOKEN_TTL_S: String(TTL_S) } });
});
afterAll(() => app.close());

const ME = `{ notifications { __typename } }`;
const LOGIN = `mutation ($email: String!, $password: String!) {
  login(email: $email, password: $password) { __typename ... on Sesion { token token_expires_at user { id } } ... on Error { message } }
}`;

/** A GraphQL request with exactly the headers given. */
async function graphql(query: string, headers: Record<string, string> = {}, variables: Record<string, unknown> = {}) {
  const response = await app.server.fetch(
    new Request("http://test/graphql", {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify({ query, variables }),
    }),
  );
  return (await response.json()) as { data: any; errors?: unknown[] };
}

async function signIn(email: string, password = PASSWORD) {
  const { data } = await graphql(LOGIN, {}, { email, password });
  return data.login as { __typename: string; token: string; token_expires_at: string; user: { id: number } };
}

const as = (token: string) => ({ authorization: `Bearer ${token}` });
const SIGNED_IN = "signed in";
/** What GraphQL makes of a token: SIGNED_IN, or the message of its refusal (HTTP 401, nothing run). */
async function whoAmI(token: string) {
  const response = await app.server.fetch(
    new Request("http://test/graphql", {
      method: "POST",
      headers: { "content-type": "application/json", ...as(token) },
      body: JSON.stringify({ query: ME }),
    }),
  );
  const body = await response.json();
  if (response.status === 200 && body.data.notifications.__typename === "QueryNotificationsSuccess") return SIGNED_IN;
  expect(response.status, JSON.stringify(body)).toBe(401);
  expect(response.headers.get("www-authenticate")).toBe("Bearer");
  expect(body.errors).toEqual([{ message: expect.any(String), extensions: { code: "UNAUTHENTICATED" } }]);
  return body.errors[0].message as string;
}

describe("session tokens", () => {
  it("sign the user in on GraphQL until the configured lifetime ends", async () => {
    const user = await registerUser(app);
    const session = await signIn(user.email);
    expect(session.user.id).toBe(user.id);
    expect(session.token_expires_at).toBe(new Date(clock.now().getTime() + TTL_S * 1000).toISOString());
    expect(await whoAmI(session.token)).toBe(SIGNED_IN);
    clock.advance(TTL_S * 1000 - 1);
    expect(await whoAmI(session.token)).toBe(SIGNED_IN);
    clock.advance(1);
    expect(await whoAmI(session.token)).toBe("La sesión venció; inicia sesión de nuevo");
  });

  it("are kept only as a SHA-256 hash, so the database alone signs nobody in", async () => {
    const user = await registerUser(app);
    const { token } = await signIn(user.email);
    const rows = await app.db.session.findMany({ where: { usuario_id: user.id } });
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(token);
    expect(rows[0]!.token_hash).toBe(createHash("sha256").update(token).digest("hex"));
    expect(await whoAmI(rows[0]!.token_hash)).not.toBe(SIGNED_IN);
  });

  it("end with logout, on GraphQL and through the legacy call, and nothing else ends", async () => {
    const user = await registerUser(app);
    const [first, second, third] = [await signIn(user.email), await signIn(user.email), await signIn(user.email)];
    expect((await graphql(`mutation { logout { __typename } }`, as(first.token))).data.logout.__typename).toBe("MutationLogoutSuccess");
    expect(await whoAmI(first.token)).toBe("La sesión no es válida o ya se cerró; inicia sesión de nuevo");
    const legacy = await app.legacy("POST", "/auth/logout.php", {}, as(second.token));
    expect(legacy.status).toBe(200);
    expect(legacy.body).toEqual({ success: true, message: "Sesión cerrada" });
    expect(await whoAmI(second.token)).not.toBe(SIGNED_IN);
    expect(await whoAmI(third.token)).toBe(SIGNED_IN);
    const again = await app.legacy("POST", "/auth/logout.php", {}, as(second.token));
    expect(again.status).toBe(401);
    expect((await app.legacy("POST", "/auth/logout.php", {})).status).toBe(401);
  });

  it.each([
    [
      "a suspension",
      (admin: number, user: number) =>
        app.graphql(`mutation ($id: Int!) { suspendUser(user_id: $id, motivo: "Fraude") { __typename } }`, { id: user }, admin),
    ],
    [
      "a deactivation",
      (admin: number, user: number) =>
        app.graphql(`mutation ($id: Int!) { updateUser(user_id: $id, input: { es_activo: false }) { __typename } }`, { id: user }, admin),
    ],
    [
      "a change of role",
      (admin: number, user: number) =>
        app.graphql(
          `mutation ($id: Int!) { updateUser(user_id: $id, input: { tipo_usuario: conductor }) { __typename } }`,
          { id: user },
          admin,
        ),
    ],
    [
      "a deletion",
      (admin: number, user: number) => app.graphql(`mutation ($id: Int!) { deleteUser(user_id: $id) { __typename } }`, { id: user }, admin),
    ],
  ])("end at once with %s", async (_name, act) => {
    const admin = await newAdmin(app);
    const user = await registerUser(app);
    const { token } = await signIn(user.email);
    expect(await whoAmI(token)).toBe(SIGNED_IN);
    const changed = await act(admin.id, user.id);
    expect(JSON.stringify(changed.data)).not.toMatch(/Error/);
    expect(await whoAmI(token)).not.toBe(SIGNED_IN);
  });

  it("all end when the password changes, except the new one it hands out", async () => {
    const user = await registerUser(app);
    const [mine, elsewhere] = [await signIn(user.email), await signIn(user.email)];
    const CHANGE = `mutation ($actual: String!, $nueva: String!) {
      changePassword(actual: $actual, nueva: $nueva) { __typename ... on Sesion { token } ... on Error { message } }
    }`;
    const wrong = await graphql(CHANGE, as(mine.token), { actual: "Otra#Clave9", nueva: "Nueva#Clave22" });
    expect(wrong.data.changePassword).toEqual({ __typename: "InvalidCredentialsError", message: "La contraseña actual no es correcta" });
    const weak = await graphql(CHANGE, as(mine.token), { actual: PASSWORD, nueva: "corta" });
    expect(weak.data.changePassword.__typename).toBe("ValidationError");
    expect(await whoAmI(mine.token)).toBe(SIGNED_IN);

    const changed = await graphql(CHANGE, as(mine.token), { actual: PASSWORD, nueva: "Nueva#Clave22" });
    expect(changed.data.changePassword.__typename).toBe("Sesion");
    expect(await whoAmI(mine.token)).not.toBe(SIGNED_IN);
    expect(await whoAmI(elsewhere.token)).not.toBe(SIGNED_IN);
    expect(await whoAmI(changed.data.changePassword.token)).toBe(SIGNED_IN);
    expect((await signIn(user.email)).__typename).toBe("InvalidCredentialsError");
    expect((await signIn(user.email, "Nueva#Clave22")).__typename).toBe("Sesion");
  });

  it("are the only identity GraphQL knows: a stated user id grants nothing", async () => {
    const admin = await newAdmin(app);
    const USERS = `{ users { __typename } }`;
    expect((await graphql(USERS, { "x-user-id": String(admin.id) })).errors).toEqual([
      expect.objectContaining({ extensions: { code: "UNAUTHENTICATED" } }),
    ]);
    const basic = await graphql(USERS, { authorization: `Basic ${Buffer.from("a:b").toString("base64")}` });
    expect(basic.errors).toEqual([
      { message: "La cabecera Authorization debe tener la forma 'Bearer <token>'", extensions: { code: "UNAUTHENTICATED" } },
    ]);
    expect((await graphql(USERS, await app.bearer(admin.id))).data.users.__typename).toBe("PaginaUsuarios");
  });

  it("leave the public operations open to anonymous callers and to stale tokens", async () => {
    const user = await registerUser(app);
    const stale = { authorization: "Bearer caducado" };
    expect((await signIn(user.email)).__typename).toBe("Sesion");
    const { data } = await graphql(LOGIN, stale, { email: user.email, password: PASSWORD });
    expect(data.login.__typename).toBe("Sesion");
    const legacy = await app.legacy("POST", "/auth/login.php", { email: user.email, password: PASSWORD }, stale);
    expect(legacy.status).toBe(200);
  });
});

describe("graphql-ws connections", () => {
  let port: number;
  const clients: Client[] = [];
  beforeAll(async () => {
    ({ port } = await app.server.start(0, "127.0.0.1"));
  });
  afterAll(() => Promise.all(clients.map((client) => client.dispose())));

  const NOTIFICATIONS = `subscription { notifications { tipo } }`;
  /** Resolves with the close code once the connection closes. */
  async function watched(token: string) {
    let closed: (code: number) => void = () => undefined;
    const codes = new Promise<number>((resolve) => (closed = resolve));
    const client = await connect(port, as(token));
    clients.push(client);
    client.on("closed", (event) => closed((event as { code: number }).code));
    const subscription = await subscribe(client, NOTIFICATIONS);
    // Its subscription ends with the connection.
    const ended = subscription.next(10_000).then(
      () => "event",
      () => "ended",
    );
    return { ended, closed: codes };
  }

  it("ignore a stated userId: without a token the caller is nobody", async () => {
    const user = await registerUser(app);
    const client = await connect(port, { userId: user.id });
    clients.push(client);
    await expect((await subscribe(client, NOTIFICATIONS)).next()).rejects.toThrow(/Inicia sesión/);
  });

  it("close (4403) when the session is revoked", async () => {
    const user = await registerUser(app);
    const { token } = await signIn(user.email);
    const { closed, ended } = await watched(token);
    await graphql(`mutation { logout { __typename } }`, as(token));
    expect(await closed).toBe(4403);
    expect(await ended).toBe("ended");
    await expect(connect(port, as(token))).rejects.toThrow(/4403/);
  });

  it("close when the user is suspended, and only theirs", async () => {
    const admin = await newAdmin(app);
    const [user, other] = [await registerUser(app), await registerUser(app)];
    const suspended = await watched((await signIn(user.email)).token);
    const untouched = await watched((await signIn(other.email)).token);
    await app.graphql(`mutation ($id: Int!) { suspendUser(user_id: $id, motivo: "Fraude") { __typename } }`, { id: user.id }, admin.id);
    expect(await suspended.closed).toBe(4403);
    const stillOpen = await Promise.race([untouched.closed, delay(300).then(() => "open")]);
    expect(stillOpen).toBe("open");
    await Promise.all([
      suspended.ended,
      app.graphql(`mutation ($id: Int!) { suspendUser(user_id: $id, motivo: "x") { __typename } }`, { id: other.id }, admin.id),
    ]);
    await untouched.ended;
  });
});

describe("a graphql-ws connection whose session expires", () => {
  it("is closed when the token's lifetime ends", async () => {
    const shortLived = await createTestApp({ env: { TOKEN_TTL_S: "1" } });
    try {
      const { port } = await shortLived.server.start(0, "127.0.0.1");
      const user = await registerUser(shortLived);
      const client = await connect(port, await shortLived.bearer(user.id));
      const closed = new Promise<number>((resolve) => client.on("closed", (event) => resolve((event as { code: number }).code)));
      expect(await Promise.race([closed, delay(5000).then(() => "still open")])).toBe(4403);
      await client.dispose();
    } finally {
      await shortLived.close();
    }
  });
});
