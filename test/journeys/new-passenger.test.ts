import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.js";
import { codeIn, startSmtp, type TestSmtp } from "../support/smtp.js";
import { PASSWORD, uniqueEmail } from "../support/fixtures.js";

// The deployed app's files named here (lib/src/…) are in https://github.com/Braian551/pingo/tree/35be6b2751ba54667ec1437fc46cd3a8ee79fd51.

/**
 * A new passenger signs up in the deployed app (Braian551/pingo, lib/src/), screen after screen,
 * with the requests those screens send (package:http JSON with Content-Type and Accept) and the
 * fields they read. The code reaches the person by real mail, read back from an SMTP server.
 */

let app: TestApp;
let smtp: TestSmtp;
beforeAll(async () => {
  smtp = await startSmtp();
  app = await createTestApp({ env: { SMTP_URL: smtp.url, MAIL_FROM: "Viax <no-responder@viax.co>", MAIL_POLL_MS: "200" } });
});
afterAll(async () => {
  await app.close();
  await smtp.close();
});

const JSON_HEADERS = { "content-type": "application/json; charset=utf-8", accept: "application/json" };
const post = (path: string, body: Record<string, unknown>) => app.legacy("POST", path, body, JSON_HEADERS);

describe("a new passenger", () => {
  const email = uniqueEmail("laura.gomez");
  const device = randomUUID();
  let code: string;
  let userId: number;

  it("email_auth_screen.dart:202-260: the device check says nobody has the e-mail, so the app opens the code screen", async () => {
    // UserService.checkDevice (global/services/auth/user_service.dart:420-441).
    const check = await post("/auth/check_device.php", { email, device_uuid: device });
    expect(check.status).toBe(200);
    expect(check.body.success).toBe(true);
    // The screen reads data.exists and data.status; with exists false it goes to the registration flow.
    expect(check.body.data).toEqual({ exists: false, status: "user_not_found" });
  });

  it("email_verification_screen.dart:163-190: the app's 4-digit code is e-mailed through email_service.php and arrives", async () => {
    // EmailService.generateVerificationCode: 1000 + Random().nextInt(9000).
    code = String(1000 + Math.floor(Math.random() * 9000));
    // EmailService.sendVerificationCode (global/services/email_service.dart:25-64): {email, code, userName}.
    const sent = await post("/auth/email_service.php", { email, code, userName: email.split("@")[0] });
    expect(sent.status).toBe(200);
    expect(sent.body.success).toBe(true);
    const mail = await smtp.waitFor((m) => m.to.includes(email));
    expect(codeIn(mail)).toBe(code);
    expect(mail.subject).toBe("Tu código de verificación · Viax");
    expect(mail.from).toBe("no-responder@viax.co");
  });

  it("email_verification_screen.dart:213-280: the typed code matches, check_user says new, so the registration form opens", async () => {
    // The screen compares the typed code with its own copy, then UserService.checkUserExists (user_service.dart:116-135).
    const exists = await post("/auth/check_user.php", { email });
    expect(exists.status).toBe(200);
    expect(exists.body.exists).toBe(false);
    // The server holds the same code (what verify_code.php checks): a wrong one is refused, this one is not.
    expect((await post("/auth/verify_code.php", { email, code: code === "9999" ? "1000" : "9999" })).status).toBe(400);
    expect((await post("/auth/verify_code.php", { email, code })).status).toBe(200);
  });

  it("register_screen.dart:51-117: registration checks the e-mail again, registers and keeps data.user as the session", async () => {
    expect((await post("/auth/check_user.php", { email })).body.exists).toBe(false);
    // UserService.registerUser (user_service.dart:7-60) adds country 'Colombia'.
    const registered = await post("/auth/register.php", {
      email,
      password: PASSWORD,
      name: "Laura",
      lastName: "Gómez",
      phone: "3001234567",
      country: "Colombia",
    });
    expect(registered.status).toBe(200);
    expect(registered.body.success).toBe(true);
    // UserService.saveSession(data.user) keeps id (int), email, tipo_usuario, nombre, telefono.
    expect(registered.body.data.user).toMatchObject({ email, nombre: "Laura", telefono: "3001234567", tipo_usuario: "cliente" });
    expect(Number.isInteger(registered.body.data.user.id)).toBe(true);
    userId = registered.body.data.user.id;
    // The spec's registration code is mailed too.
    const welcome = await smtp.waitFor((m) => m.to.includes(email) && codeIn(m).length === 6);
    expect(welcome.text).toMatch(/Hola Laura/);
  });

  it("welcome_splash_screen.dart:43 → home_user.dart:124-140: home greets the passenger from profile.php?userId=", async () => {
    const profile = await app.legacy("GET", "/auth/profile.php", { userId: String(userId) }, { accept: "application/json" });
    expect(profile.status).toBe(200);
    // UserService.getProfile flattens data.user and data.location; home reads user['nombre'] as String?.
    expect(profile.body.data.user.nombre).toBe("Laura");
    expect(profile.body.data).toHaveProperty("location");
  });

  it("login_screen.dart:47-120: signing in later with the device id lands on the passenger home and trusts the phone", async () => {
    const login = await post("/auth/login.php", { email, password: PASSWORD, device_uuid: device });
    expect(login.status).toBe(200);
    expect(login.body.success).toBe(true);
    // The screen routes by data.user.tipo_usuario: 'administrador', 'conductor', anything else to the passenger home.
    expect(login.body.data.user).toMatchObject({ id: userId, tipo_usuario: "cliente" });
    // Next time the app goes straight to the password screen.
    const check = await post("/auth/check_device.php", { email, device_uuid: device });
    expect(check.body.data).toEqual({ exists: true, status: "trusted" });
  });

  it("got each mail exactly once", () => {
    expect(smtp.received.filter((m) => m.to.includes(email))).toHaveLength(2);
  });
});
