import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { plainName } from "../../src/domain/mail/templates.js";
import { createTestApp, type TestApp } from "../support/app.js";
import { FixedClock } from "../support/clock.js";
import { newAdmin } from "../support/drivers.js";
import { registerUser, uniqueEmail } from "../support/fixtures.js";

/** email_service.php and verify_code.php: the code the app makes up, e-mailed and checked on the server. */

let app: TestApp;
const clock = new FixedClock();
beforeAll(async () => {
  app = await createTestApp({ clock, env: { EMAIL_CODES_PER_RECIPIENT: "3" } });
});
afterAll(() => app.close());

const send = (body: Record<string, unknown>) => app.legacy("POST", "/auth/email_service.php", body);
const verify = (body: Record<string, unknown>) => app.legacy("POST", "/auth/verify_code.php", body);
const lastMailTo = (email: string) => app.db.outboxMail.findFirstOrThrow({ where: { destinatario: email }, orderBy: { id: "desc" } });

describe("POST /auth/email_service.php", () => {
  it("queues the app's code in a fixed Spanish mail that expires with the code, and keeps only its hash", async () => {
    const email = uniqueEmail("codigo");
    const response = await send({ email, code: "4821", userName: "laura.gomez" });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, message: "Te enviamos el código a tu correo" });
    const mail = await lastMailTo(email);
    expect(mail.asunto).toBe("Tu código de verificación · Viax");
    expect(mail.cuerpo).toBe(
      [
        "Hola laura gomez:",
        "",
        "Tu código de verificación es 4821. Vence en 10 minutos.",
        "",
        "Si no lo pediste, ignora este correo: sin tu contraseña nadie puede entrar a tu cuenta.",
        "",
        "— Viax",
      ].join("\n"),
    );
    expect(mail.vence_en).toEqual(new Date(clock.now().getTime() + 10 * 60 * 1000));
    const stored = await app.db.emailCode.findFirstOrThrow({ where: { email } });
    expect(stored.codigo_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(stored.codigo_hash).not.toContain("4821");
  });

  it("is signed with the platform's name and support address as administrators set them", async () => {
    const admin = await newAdmin(app);
    for (const [clave, valor] of [
      ["app_nombre", "Rueda"],
      ["correo_soporte", "ayuda@rueda.co"],
    ]) {
      const saved = await app.legacy("PUT", "/admin/app_config.php", { admin_id: admin.id, clave, valor });
      expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    }
    const email = uniqueEmail("firma");
    await send({ email, code: "2580" });
    const mail = await lastMailTo(email);
    expect(mail.asunto).toBe("Tu código de verificación · Rueda");
    expect(mail.cuerpo.split("\n").slice(-2)).toEqual(["— Rueda", "¿Dudas? Escríbenos a ayuda@rueda.co"]);
    await app.db.appSetting.deleteMany();
  });

  it("greets an existing account by its own name, never by the caller's", async () => {
    const user = await registerUser(app, { name: "Marta" });
    await send({ email: user.email, code: "1234", userName: "Gana un premio" });
    expect((await lastMailTo(user.email)).cuerpo.split("\n")[0]).toBe("Hola Marta:");
  });

  it.each([
    ["<a href='http://evil.example'>clic</a>", "a href'httpevil example'clica"],
    ["visita evil.com ya", "visita evil com"],
    ["Ana María 2024 !!!", "Ana María"],
    ["12345", null],
    ["Una cadena de palabras demasiado larga para saludar", "Una cadena de"],
  ])("greets with letters only, at most three words: %j", (sent, greeted) => {
    expect(plainName(sent)).toBe(greeted);
  });

  it("never puts anything but the code and a plain name in the mail", async () => {
    const email = uniqueEmail("limpio");
    await send({ email, code: "9876", userName: "Hola\r\nBcc: otro@example.com <script>http://x.y/z</script>" });
    const mail = await lastMailTo(email);
    expect(mail.cuerpo.split("\n")[0]).toBe("Hola Hola Bcc otroexample:");
    expect(mail.cuerpo).not.toMatch(/[<>@\r:/]\S/);
    expect(mail.asunto).toBe("Tu código de verificación · Viax");
  });

  it.each([
    [{ email: "no-es-correo", code: "1234" }, "El campo 'email' no es un correo electrónico válido"],
    [{ email: "a@b.co", code: "12" }, "El campo 'code' debe tener de 4 a 8 dígitos"],
    [{ email: "a@b.co", code: "12ab" }, "El campo 'code' debe tener de 4 a 8 dígitos"],
    [{ email: "a@b.co" }, "El campo 'code' es obligatorio"],
  ])("refuses %j with 400 and queues nothing", async (body, message) => {
    const before = await app.db.outboxMail.count();
    const response = await send(body);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ success: false, message });
    expect(await app.db.outboxMail.count()).toBe(before);
  });

  it("sends at most EMAIL_CODES_PER_RECIPIENT codes to one address per window, then 429 with Retry-After", async () => {
    const email = uniqueEmail("limite");
    for (const code of ["1111", "2222", "3333"]) expect((await send({ email, code })).status).toBe(200);
    const refused = await send({ email, code: "4444" });
    expect(refused.status).toBe(429);
    expect(refused.body.message).toMatch(/^Demasiados códigos enviados a este correo; intenta de nuevo en \d+ segundos$/);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await app.db.outboxMail.count({ where: { destinatario: email } })).toBe(3);
  });
});

describe("limits per client address", () => {
  let strict: TestApp;
  beforeAll(async () => {
    strict = await createTestApp({ env: { EMAIL_CODES_PER_ADDRESS: "2" } });
  });
  afterAll(() => strict.close());

  it("refuses a client that asks codes for many addresses", async () => {
    const ask = (email: string) => strict.legacy("POST", "/auth/email_service.php", { email, code: "1234" });
    expect((await ask(uniqueEmail())).status).toBe(200);
    expect((await ask(uniqueEmail())).status).toBe(200);
    const refused = await ask(uniqueEmail());
    expect(refused.status).toBe(429);
    expect(refused.body.message).toMatch(/^Demasiados códigos pedidos desde tu conexión/);
  });
});

describe("POST /auth/verify_code.php", () => {
  it("accepts the newest code once; an older or reused code is refused", async () => {
    const email = uniqueEmail("verifica");
    await send({ email, code: "1111" });
    await send({ email, code: "2222" });
    const old = await verify({ email, code: "1111" });
    expect(old.status).toBe(400);
    expect(old.body.message).toBe("El campo 'code' no es correcto");
    expect(await verify({ email, code: "2222" })).toMatchObject({
      status: 200,
      body: { success: true, message: "Código verificado correctamente", dispositivo_confiable: false },
    });
    const again = await verify({ email, code: "2222" });
    expect(again.status).toBe(400);
    expect(again.body.message).toMatch(/^El campo 'code' venció, ya se usó/);
  });

  it("refuses a code past its 10 minutes", async () => {
    const email = uniqueEmail("vence");
    await send({ email, code: "5555" });
    clock.advance(10 * 60 * 1000);
    const late = await verify({ email, code: "5555" });
    expect(late.status).toBe(400);
    expect(late.body.message).toMatch(/venció/);
  });

  it("voids a code after five wrong tries", async () => {
    const email = uniqueEmail("intentos");
    await send({ email, code: "7777" });
    for (let i = 0; i < 5; i++) expect((await verify({ email, code: `100${i}` })).status).toBe(400);
    const right = await verify({ email, code: "7777" });
    expect(right.status).toBe(400);
    expect(right.body.message).toMatch(/se intentó demasiadas veces/);
  });

  it("never marks the account verified: the app chose the code", async () => {
    const user = await registerUser(app);
    await send({ email: user.email, code: "3141" });
    expect((await verify({ email: user.email, code: "3141" })).status).toBe(200);
    expect((await app.db.user.findUniqueOrThrow({ where: { id: user.id } })).es_verificado).toBe(false);
  });
});
