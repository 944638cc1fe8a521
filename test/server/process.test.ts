import { createServer, type Server } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../src/db/client.js";
import { applyMigrations } from "../../src/db/migrate.js";
import { createTestDatabase, type TestDatabase } from "../support/database.js";
import { startRefused, startService } from "../support/process.js";
import { startSmtp } from "../support/smtp.js";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.drop());

/** A port something else listens on. */
async function takenPort(): Promise<{ port: number; server: Server }> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { port: (server.address() as { port: number }).port, server };
}

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

  it("refuses to start with an administrator password that breaks the policy: too short, or easy to guess", async () => {
    await expect(startService({ DATABASE_URL: database.url, ADMIN_EMAIL: "debil@example.com", ADMIN_PASSWORD: "debil" })).rejects.toThrow(
      /exited with 1[\s\S]*ADMIN_PASSWORD must be a password of at least 8 characters/,
    );
    const guessable = startService({ DATABASE_URL: database.url, ADMIN_EMAIL: "jefa2@example.com", ADMIN_PASSWORD: "Password123" });
    await expect(guessable).rejects.toThrow(
      /exited with 1[\s\S]*Invalid configuration: ADMIN_PASSWORD must be a password hard to guess, and this one es fácil de adivinar.* \(given 11 characters\)/,
    );
    await expect(guessable).rejects.not.toThrow(/Password123/);
  });

  it("says in one line that it cannot listen on a port in use, and exits 1 without sending the mail waiting in the outbox", async () => {
    await applyMigrations(database.url);
    const db = await openDatabase(database.url);
    const smtp = await startSmtp();
    const { port, server } = await takenPort();
    try {
      const waiting = await db.prisma.outboxMail.create({ data: { destinatario: "ana@example.com", asunto: "Hola", cuerpo: "Texto" } });
      const refused = await startRefused({
        DATABASE_URL: database.url,
        PORT: String(port),
        SMTP_URL: smtp.url,
        MAIL_FROM: "Pingo <no-responder@pingo.test>",
        MAIL_POLL_MS: "100",
      });
      expect(refused.code).toBe(1);
      expect(refused.stderr).toBe(`Cannot listen on 127.0.0.1:${port}: the port is already in use; set PORT to a free one (EADDRINUSE)\n`);
      expect(refused.stdout).not.toMatch(/Internal error|WebSocket|"msg":"listening"/);
      // Nothing was claimed, so another process sends it at once rather than after a claim runs out.
      expect(await db.prisma.outboxMail.findUniqueOrThrow({ where: { id: waiting.id } })).toMatchObject({
        estado: "pendiente",
        intentos: 0,
        reclamado_hasta: null,
      });
      expect(smtp.received).toEqual([]);
    } finally {
      server.close();
      await smtp.close();
      await db.close();
    }
  });

  it("says in one line that HOST is not an address of this machine, and exits 1", async () => {
    // TEST-NET-1 (RFC 5737): never an address of this machine.
    const refused = await startRefused({ DATABASE_URL: database.url, HOST: "192.0.2.1", PORT: "4999" });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe("Cannot listen on 192.0.2.1:4999: HOST is not an address of this machine (EADDRNOTAVAIL)\n");
  });

  it("refuses a bad setting in one line that names it, before touching the database", async () => {
    const refused = await startRefused({ DATABASE_URL: database.url, SMTP_URL: "smtp://correo.test:25", MAIL_FROM: "Pingo" });
    expect(refused).toEqual({
      code: 1,
      stdout: "",
      stderr: 'Invalid configuration: MAIL_FROM must be an e-mail address, or Name <address> (given "Pingo")\n',
    });
  });
});
