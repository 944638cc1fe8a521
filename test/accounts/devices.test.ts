import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.js";
import { FixedClock } from "../support/clock.js";
import { newAdmin } from "../support/drivers.js";
import { PASSWORD, registerUser, tableCounts, uniqueEmail } from "../support/fixtures.js";

/** check_device.php and what makes a phone trusted, locked or unknown again. */

let app: TestApp;
const clock = new FixedClock();
beforeAll(async () => {
  app = await createTestApp({ clock, env: { DEVICE_LOCK_S: "600" } });
});
afterAll(() => app.close());

const check = async (email: string, device_uuid: string) => {
  const response = await app.legacy("POST", "/auth/check_device.php", { email, device_uuid });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body;
};
const statusOf = async (email: string, device: string) => (await check(email, device)).data.status;
const login = (email: string, device_uuid?: string, password = PASSWORD) =>
  app.legacy("POST", "/auth/login.php", { email, password, ...(device_uuid ? { device_uuid } : {}) });
const sendCode = (email: string, code: string) => app.legacy("POST", "/auth/email_service.php", { email, code });
const verify = (email: string, code: string, device_uuid: string, mark_device_trusted = true) =>
  app.legacy("POST", "/auth/verify_code.php", { email, code, device_uuid, mark_device_trusted });

describe("POST /auth/check_device.php", () => {
  it("tells an anonymous caller only whether the account exists and what this phone is to it", async () => {
    const user = await registerUser(app);
    const known = await check(user.email, randomUUID());
    expect(known).toEqual({ success: true, message: "Estado del dispositivo", data: { exists: true, status: "unknown_device" } });
    const nobody = await check(uniqueEmail(), randomUUID());
    expect(nobody).toEqual({
      success: true,
      message: "No hay una cuenta con ese correo",
      data: { exists: false, status: "user_not_found" },
    });
  });

  it("changes nothing: asking twice gives the same answer and writes no row", async () => {
    const user = await registerUser(app);
    const device = randomUUID();
    const before = await app.db.userDevice.count();
    expect(await statusOf(user.email, device)).toBe("unknown_device");
    expect(await statusOf(user.email, device)).toBe("unknown_device");
    expect(await app.db.userDevice.count()).toBe(before);
  });

  it("keeps only a hash of the device id", async () => {
    const user = await registerUser(app);
    const device = randomUUID();
    expect((await login(user.email, device)).status).toBe(200);
    const row = await app.db.userDevice.findFirstOrThrow({ where: { usuario_id: user.id } });
    expect(row.huella).toMatch(/^[0-9a-f]{64}$/);
    expect(row.huella).not.toContain(device);
  });

  it("says a deleted account does not exist", async () => {
    const user = await registerUser(app);
    const admin = await newAdmin(app);
    expect((await app.legacy("DELETE", "/admin/user_management.php", { admin_id: admin.id, user_id: user.id })).status).toBe(200);
    expect((await check(user.email, randomUUID())).data).toEqual({ exists: false, status: "user_not_found" });
  });

  it.each([
    [{ email: "a@b.co" }, "El campo 'device_uuid' es obligatorio"],
    [{ email: "a@b.co", device_uuid: "corto" }, "El campo 'device_uuid' debe tener al menos 8 caracteres"],
    [{ email: "a@b.co", device_uuid: "con espacios dentro" }, "El campo 'device_uuid' solo admite letras, números y . _ : -"],
    [{ email: "no-es-correo", device_uuid: randomUUID() }, "El campo 'email' no es un correo electrónico válido"],
  ])("refuses %j with 400", async (body, message) => {
    const response = await app.legacy("POST", "/auth/check_device.php", body);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ success: false, message });
  });
});

describe("a trusted device", () => {
  it("is one that signed in with the right password, and only that one", async () => {
    const user = await registerUser(app);
    const phone = randomUUID();
    const other = randomUUID();
    expect((await login(user.email, phone, "Otra#Clave99")).status).toBe(401);
    expect(await statusOf(user.email, phone)).toBe("unknown_device");
    expect((await login(user.email, phone)).status).toBe(200);
    expect(await statusOf(user.email, phone)).toBe("trusted");
    expect(await statusOf(user.email, other)).toBe("unknown_device");
  });

  it("is one that verified a code with mark_device_trusted; without it the code trusts nothing", async () => {
    const user = await registerUser(app);
    const phone = randomUUID();
    await sendCode(user.email, "2468");
    expect((await verify(user.email, "2468", phone, false)).body.dispositivo_confiable).toBe(false);
    expect(await statusOf(user.email, phone)).toBe("unknown_device");
    await sendCode(user.email, "1357");
    expect((await verify(user.email, "1357", phone)).body).toMatchObject({ success: true, dispositivo_confiable: true });
    expect(await statusOf(user.email, phone)).toBe("trusted");
  });

  it("is trusted no more once the password changes", async () => {
    const user = await registerUser(app);
    const phone = randomUUID();
    const signedIn = await login(user.email, phone);
    expect(await statusOf(user.email, phone)).toBe("trusted");
    const changed = await app.server.fetch(
      new Request("http://test/graphql", {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${signedIn.body.token}` },
        body: JSON.stringify({
          query: `mutation { changePassword(actual: "${PASSWORD}", nueva: "Nueva#Clave2027") { __typename } }`,
        }),
      }),
    );
    expect((await changed.json()).data.changePassword.__typename).toBe("Sesion");
    expect(await statusOf(user.email, phone)).toBe("needs_verification");
  });

  it("is trusted no more once the account is suspended, and stays so after it is activated", async () => {
    const user = await registerUser(app);
    const admin = await newAdmin(app);
    const phone = randomUUID();
    await login(user.email, phone);
    const suspended = await app.legacy("POST", "/admin/suspender_usuario.php", { admin_id: admin.id, user_id: user.id, motivo: "Fraude" });
    expect(suspended.status).toBe(200);
    expect(await statusOf(user.email, phone)).toBe("needs_verification");
    await app.legacy("POST", "/admin/activar_usuario.php", { admin_id: admin.id, user_id: user.id });
    expect(await statusOf(user.email, phone)).toBe("needs_verification");
  });
});

describe("a locked device", () => {
  it("is locked after five wrong codes, refuses even the right one while locked, and works again after DEVICE_LOCK_S", async () => {
    const user = await registerUser(app);
    const phone = randomUUID();
    await sendCode(user.email, "8642");
    for (let i = 1; i <= 4; i++) {
      const wrong = await verify(user.email, `000${i}`, phone);
      expect(wrong.status).toBe(400);
      expect(await statusOf(user.email, phone)).toBe("needs_verification");
    }
    const fifth = await verify(user.email, "0005", phone);
    expect(fifth.status).toBe(429);
    expect(fifth.body.message).toBe("Este dispositivo quedó bloqueado por demasiados códigos incorrectos; intenta de nuevo en 10 minutos");
    expect(fifth.headers.get("retry-after")).toBe("600");
    expect(await statusOf(user.email, phone)).toBe("locked");

    await sendCode(user.email, "1122");
    const counts = await tableCounts(app);
    const whileLocked = await verify(user.email, "1122", phone);
    expect(whileLocked.status).toBe(429);
    expect(await tableCounts(app)).toEqual(counts);
    // Another phone of the same account is not locked by this one.
    expect(await statusOf(user.email, randomUUID())).toBe("unknown_device");

    clock.advance(600 * 1000);
    expect(await statusOf(user.email, phone)).toBe("needs_verification");
    await sendCode(user.email, "3344");
    expect((await verify(user.email, "3344", phone)).status).toBe(200);
    expect(await statusOf(user.email, phone)).toBe("trusted");
  });
});
