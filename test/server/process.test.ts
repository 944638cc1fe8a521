import { spawn } from "node:child_process";
import { once } from "node:events";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../support/database.js";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.drop());

/** Starts `npm start`'s entry point and resolves with the port it logs once listening. */
function startProcess(env: Record<string, string>) {
  const child = spawn(process.execPath, ["--import", "tsx", "src/index.ts"], {
    env: { ...process.env, PORT: "0", HOST: "127.0.0.1", NODE_ENV: "test", BCRYPT_COST: "4", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const listening = new Promise<number>((resolve, reject) => {
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const match = output.match(/"port":(\d+)[^\n]*"msg":"listening"/);
      if (match) resolve(Number(match[1]));
    });
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.once("exit", (code) => reject(new Error(`exited with ${code}: ${output}`)));
  });
  return { child, listening, output: () => output };
}

describe("the service process", () => {
  it("migrates, creates the first administrator, serves, and exits cleanly on SIGTERM", async () => {
    const { child, listening, output } = startProcess({
      DATABASE_URL: database.url,
      ADMIN_EMAIL: "jefa@example.com",
      ADMIN_PASSWORD: "Admin#Segura1",
    });
    const port = await listening;
    const login = await fetch(`http://127.0.0.1:${port}/auth/login.php`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "jefa@example.com", password: "Admin#Segura1" }),
    });
    expect(login.status).toBe(200);
    expect((await login.json()).user).toMatchObject({ tipo_usuario: "admin", es_verificado: true });

    child.kill("SIGTERM");
    const [code] = await once(child, "exit");
    expect(code).toBe(0);
    expect(output()).toContain('"msg":"stopped"');
  });

  it("does not create a second administrator when one exists, and stops on SIGINT", async () => {
    const { child, listening } = startProcess({
      DATABASE_URL: database.url,
      ADMIN_EMAIL: "otro.jefe@example.com",
      ADMIN_PASSWORD: "Admin#Segura1",
    });
    const port = await listening;
    const check = await fetch(`http://127.0.0.1:${port}/auth/check_user.php`, {
      method: "POST",
      body: JSON.stringify({ email: "otro.jefe@example.com" }),
    });
    expect((await check.json()).exists).toBe(false);
    child.kill("SIGINT");
    const [code] = await once(child, "exit");
    expect(code).toBe(0);
  });

  it("refuses to start with an administrator password that breaks the policy", async () => {
    const { child, listening } = startProcess({
      DATABASE_URL: database.url,
      ADMIN_EMAIL: "debil@example.com",
      ADMIN_PASSWORD: "debil",
    });
    await expect(listening).rejects.toThrow(/ADMIN_PASSWORD/);
    expect(child.exitCode).not.toBe(0);
  });
});
