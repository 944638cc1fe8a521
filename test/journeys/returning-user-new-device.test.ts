import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.js";
import { FixedClock } from "../support/clock.js";
import { PASSWORD, registerUser } from "../support/fixtures.js";
import { codeIn, startSmtp, type TestSmtp } from "../support/smtp.js";

// The deployed app's files named here (lib/src/…) are in https://github.com/Braian551/pingo/tree/35be6b2751ba54667ec1437fc46cd3a8ee79fd51.

/**
 * Someone with an account picks up a new phone (Braian551/pingo, lib/src/features/auth/presentation/screens/):
 * the device check asks for a code, the code arrives by mail, the phone becomes trusted and the app
 * goes to the password screen; wrong codes lock the phone for a while.
 */

let app: TestApp;
let smtp: TestSmtp;
const clock = new FixedClock(new Date());
beforeAll(async () => {
  smtp = await startSmtp();
  app = await createTestApp({
    clock,
    env: { SMTP_URL: smtp.url, MAIL_FROM: "no-responder@viax.co", MAIL_POLL_MS: "200", DEVICE_LOCK_S: "900" },
  });
});
afterAll(async () => {
  await app.close();
  await smtp.close();
});

const JSON_HEADERS = { "content-type": "application/json; charset=utf-8", accept: "application/json" };
const post = (path: string, body: Record<string, unknown>) => app.legacy("POST", path, body, JSON_HEADERS);
const deviceCheck = async (email: string, device_uuid: string) => {
  const response = await post("/auth/check_device.php", { email, device_uuid });
  expect(response.status).toBe(200);
  return response.body.data;
};
/** EmailVerificationScreen._sendVerificationCode: a fresh 4-digit code through email_service.php, read from the inbox. */
async function mailedCode(email: string): Promise<string> {
  const code = String(1000 + Math.floor(Math.random() * 9000));
  const already = smtp.received.length;
  expect((await post("/auth/email_service.php", { email, code, userName: email.split("@")[0] })).status).toBe(200);
  const mail = await smtp.waitFor((m) => m.to.includes(email) && smtp.received.indexOf(m) >= already && codeIn(m) === code);
  return codeIn(mail);
}

describe("a returning user on a new phone", () => {
  let email: string;
  const phone = randomUUID();
  beforeAll(async () => {
    email = (await registerUser(app, { name: "Camilo" })).email;
  });

  it("email_auth_screen.dart:210-250: the device check says the account exists and this phone is unknown", async () => {
    // Anything but 'trusted' or 'locked' opens the code screen with fromDeviceChallenge.
    expect(await deviceCheck(email, phone)).toEqual({ exists: true, status: "unknown_device" });
  });

  it("email_verification_screen.dart:163-175, 322-335: the code comes by mail and verify_code.php trusts the phone", async () => {
    const code = await mailedCode(email);
    // UserService.verifyCodeAndTrustDevice (user_service.dart:444-470): mark_device_trusted as a JSON boolean.
    const verified = await post("/auth/verify_code.php", { email, code, device_uuid: phone, mark_device_trusted: true });
    expect(verified.status).toBe(200);
    expect(verified.body).toMatchObject({ success: true, dispositivo_confiable: true });
  });

  it("email_auth_screen.dart:212-221: the next device check says trusted, so the app opens the password screen", async () => {
    expect(await deviceCheck(email, phone)).toEqual({ exists: true, status: "trusted" });
    // login_screen.dart:69-120 signs in with the password and the same device id.
    const login = await post("/auth/login.php", { email, password: PASSWORD, device_uuid: phone });
    expect(login.status).toBe(200);
    expect(login.body.data.user).toMatchObject({ email, tipo_usuario: "cliente" });
  });

  it("the app's own path for needs_verification (code checked on the phone, then the password) trusts the phone too", async () => {
    const tablet = randomUUID();
    expect((await deviceCheck(email, tablet)).status).toBe("unknown_device");
    await mailedCode(email);
    // email_verification_screen.dart:226-255: check_user says the account exists, so the login screen opens.
    expect((await post("/auth/check_user.php", { email })).body.exists).toBe(true);
    expect((await post("/auth/login.php", { email, password: PASSWORD, device_uuid: tablet })).status).toBe(200);
    expect((await deviceCheck(email, tablet)).status).toBe("trusted");
  });
});

describe("a phone that guesses codes", () => {
  it("is locked after five wrong codes, and the app's locked path then gets in only after the lock and a right code", async () => {
    const { email } = await registerUser(app, { name: "Sofía" });
    const phone = randomUUID();
    const code = await mailedCode(email);
    const wrong = code === "1000" ? "1001" : "1000";
    for (let i = 0; i < 4; i++) {
      expect((await post("/auth/verify_code.php", { email, code: wrong, device_uuid: phone, mark_device_trusted: true })).status).toBe(400);
    }
    const locking = await post("/auth/verify_code.php", { email, code: wrong, device_uuid: phone, mark_device_trusted: true });
    expect(locking.status).toBe(429);
    // email_auth_screen.dart:222-234: 'locked' sends the app to the code screen with directToHomeAfterCode.
    expect(await deviceCheck(email, phone)).toEqual({ exists: true, status: "locked" });
    const fresh = await mailedCode(email);
    const refused = await post("/auth/verify_code.php", { email, code: fresh, device_uuid: phone, mark_device_trusted: true });
    expect(refused.status).toBe(429);
    expect(refused.body.message).toMatch(/^Este dispositivo quedó bloqueado/);
    expect((await deviceCheck(email, phone)).status).toBe("locked");

    clock.advance(15 * 60 * 1000);
    const code2 = await mailedCode(email);
    expect((await post("/auth/verify_code.php", { email, code: code2, device_uuid: phone, mark_device_trusted: true })).status).toBe(200);
    expect((await deviceCheck(email, phone)).status).toBe("trusted");
  });
});
