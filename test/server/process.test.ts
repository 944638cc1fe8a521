import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../support/database.js";
import { startService } from "../support/process.js";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.drop());

describe("the service process", () => {
  it("migrates, creates the first administrator, serves, and exits cleanly on SIGTERM", async () => {
    const service = await startService({
      DATABASE_URL: database.url,
      ADMIN_EMAIL: "jefa@example.com",
      ADMIN_PASSWORD: "Admin#Segura1",
    });
    const login = await fetch(`http://127.0.0.1:${service.port}/auth/login.php`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "jefa@example.com", password: "Admin#Segura1" }),
    });
    expect(login.status).toBe(200);
    expect((await login.json()).user).toMatchObject({ tipo_usuario: "admin", es_verificado: true });
    expect(await service.stop("SIGTERM")).toBe(0);
    expect(service.output()).toContain('"msg":"stopped"');
  });

  it("does not create a second administrator when one exists, and stops on SIGINT", async () => {
    const service = await startService({
      DATABASE_URL: database.url,
      ADMIN_EMAIL: "otro.jefe@example.com",
      ADMIN_PASSWORD: "Admin#Segura1",
    });
    const check = await fetch(`http://127.0.0.1:${service.port}/auth/check_user.php`, {
      method: "POST",
      body: JSON.stringify({ email: "otro.jefe@example.com" }),
    });
    expect((await check.json()).exists).toBe(false);
    expect(await service.stop("SIGINT")).toBe(0);
  });

  it("refuses to start with an administrator password that breaks the policy", async () => {
    await expect(startService({ DATABASE_URL: database.url, ADMIN_EMAIL: "debil@example.com", ADMIN_PASSWORD: "debil" })).rejects.toThrow(
      /exited with 1[\s\S]*ADMIN_PASSWORD/,
    );
  });
});
