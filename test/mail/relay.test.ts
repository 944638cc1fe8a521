import { createServer } from "node:net";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { createLogger } from "../../src/logger.js";
import { createTestApp, type TestApp } from "../support/app.js";
import { FixedClock } from "../support/clock.js";
import { latestCode, registerUser } from "../support/fixtures.js";
import { logLines } from "../support/log.js";
import { watchRejections } from "../support/rejections.js";
import { codeIn, startSmtp, type TestSmtp } from "../support/smtp.js";

/** Mail queued by real calls leaves through a real SMTP server, whatever that server does. */
const rejections = watchRejections();
const cleanups: Array<() => Promise<unknown>> = [];
const SOON = { timeout: 15_000, interval: 20 };

afterEach(async () => {
  // The service first (it stops its relay), then the SMTP server it talks to.
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});
afterAll(() => {
  expect(rejections).toEqual([]);
});

const mailEnv = (smtpUrl: string) => ({
  SMTP_URL: smtpUrl,
  MAIL_FROM: "Pingo <no-responder@pingo.test>",
  MAIL_POLL_MS: "100",
  MAIL_RETRY_S: "0.05",
  SMTP_TIMEOUT_MS: "10000",
});

async function smtpServer(port?: number): Promise<TestSmtp> {
  const smtp = await startSmtp({ port });
  cleanups.push(() => smtp.close());
  return smtp;
}

async function appWith(options: Parameters<typeof createTestApp>[0]): Promise<TestApp> {
  const app = await createTestApp(options);
  cleanups.push(() => app.close());
  return app;
}

/** A port nothing listens on (until a test starts an SMTP server there). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const outboxRow = (app: TestApp, email: string) => app.db.outboxMail.findFirstOrThrow({ where: { destinatario: email } });
const sentTo = (smtp: TestSmtp, email: string) => smtp.received.filter((mail) => mail.to.includes(email));

describe("outgoing mail over SMTP", () => {
  it("sends the code mail of a registration once, with a Message-ID of its row, and marks the row enviado", async () => {
    const smtp = await smtpServer();
    const app = await appWith({ env: mailEnv(smtp.url) });
    const { email } = await registerUser(app);

    const mail = await smtp.waitFor((received) => received.to.includes(email));
    expect(mail).toMatchObject({ from: "no-responder@pingo.test", subject: "Tu código de verificación · Viax" });
    expect(codeIn(mail)).toBe(await latestCode(app, email));
    await expect.poll(() => outboxRow(app, email), SOON).toMatchObject({ estado: "enviado", intentos: 1, reclamado_hasta: null });
    const row = await outboxRow(app, email);
    expect(row.enviado_en).toBeInstanceOf(Date);
    expect(mail.messageId).toBe(`<correo-${row.id}.${row.creado_en.getTime().toString(36)}@pingo.test>`);

    // The passes that send a second mail do not send the first again.
    const other = await registerUser(app);
    await smtp.waitFor((received) => received.to.includes(other.email));
    await expect.poll(() => outboxRow(app, other.email), SOON).toMatchObject({ estado: "enviado" });
    expect(sentTo(smtp, email)).toHaveLength(1);

    const metrics = await (await app.server.fetch(new Request("http://test/metrics"))).text();
    expect(metrics).toMatch(/^outbox_mail\{estado="enviado"\} 2$/m);
    expect(metrics).toMatch(/^outbox_mail\{estado="pendiente"\} 0$/m);
    expect(metrics).toMatch(/^outbox_mail\{estado="fallido"\} 0$/m);
  });

  it("keeps trying while the SMTP server is down, with one warning, and sends the mail once when it comes up", async () => {
    const port = await freePort();
    const { lines, sink } = logLines();
    const app = await appWith({
      env: { ...mailEnv(`smtp://127.0.0.1:${port}`), MAIL_MAX_ATTEMPTS: "50" },
      log: createLogger({ LOG_LEVEL: "info" }, sink),
    });
    const { email } = await registerUser(app);

    // An attempt is counted when the mail is claimed, and its next time set once it has failed: the claim is let go between attempts.
    const afterAttempt = (atLeast: number) =>
      vi.waitFor(async () => {
        const row = await outboxRow(app, email);
        if (row.reclamado_hasta !== null || row.intentos < atLeast) throw new Error(`not yet after attempt ${atLeast}`);
        return row;
      }, SOON);
    const earlier = await afterAttempt(2);
    expect(earlier.estado).toBe("pendiente");
    expect(earlier.ultimo_error).toMatch(/ECONNREFUSED/);
    const later = await afterAttempt(earlier.intentos + 1);
    expect(later.proximo_intento.getTime()).toBeGreaterThan(earlier.proximo_intento.getTime());
    const warnings = lines.filter((line) => line.msg === "mail relay: the mail server fails; mail waits in the outbox");
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ level: 40 });

    const smtp = await smtpServer(port);
    await smtp.waitFor((mail) => mail.to.includes(email));
    await expect.poll(() => outboxRow(app, email), SOON).toMatchObject({ estado: "enviado" });
    const other = await registerUser(app);
    await smtp.waitFor((mail) => mail.to.includes(other.email));
    expect(sentTo(smtp, email)).toHaveLength(1);
    expect(lines.find((line) => line.msg === "mail relay: the mail server answers again")).toMatchObject({ level: 30 });
  });

  it("marks a code mail that could not go out before the code expired vencido, and never sends it", async () => {
    const port = await freePort();
    // Ahead of the time the database stamps on new mail, so that it is due at once.
    const clock = new FixedClock(new Date(Date.now() + 60_000));
    const app = await appWith({ clock, env: mailEnv(`smtp://127.0.0.1:${port}`) });
    const { email } = await registerUser(app);
    // Tried once, in vain; the clock does not move, so it waits.
    await expect
      .poll(() => outboxRow(app, email), SOON)
      .toMatchObject({ intentos: 1, ultimo_error: expect.stringMatching(/ECONNREFUSED/) });
    const code = await app.db.emailVerification.findFirstOrThrow({ where: { usuario: { email } } });
    expect((await outboxRow(app, email)).vence_en).toEqual(code.expira_en);

    clock.advance(10 * 60_000);
    await expect.poll(async () => (await outboxRow(app, email)).estado, SOON).toBe("vencido");
    const smtp = await smtpServer(port);
    const other = await registerUser(app);
    await smtp.waitFor((mail) => mail.to.includes(other.email));
    expect(smtp.received.map((mail) => mail.to)).toEqual([[other.email]]);
    expect(await outboxRow(app, email)).toMatchObject({ estado: "vencido", intentos: 1, enviado_en: null });
  });

  it("answers calls while a slow SMTP server holds a mail, and sends what was queued meanwhile once it answers", async () => {
    const smtp = await smtpServer();
    smtp.hold();
    const app = await appWith({ env: mailEnv(smtp.url) });
    const first = await registerUser(app);
    await expect.poll(() => smtp.holding(), SOON).toBe(1);

    // The server holds the first mail: the relay waits for it, requests do not.
    const second = await registerUser(app);
    expect((await app.legacy("GET", "/auth/profile.php", { email: first.email })).status).toBe(200);
    expect(smtp.holding()).toBe(1);
    expect(smtp.received).toHaveLength(0);
    expect(await outboxRow(app, first.email)).toMatchObject({ estado: "pendiente", intentos: 1 });

    smtp.release();
    await smtp.waitFor((mail) => mail.to.includes(first.email));
    await smtp.waitFor((mail) => mail.to.includes(second.email));
    await expect.poll(() => app.db.outboxMail.count({ where: { estado: "enviado" } }), SOON).toBe(2);
  });
});

describe("without SMTP_URL", () => {
  it("warns at start-up in production that mail stays in the outbox", async () => {
    const { lines, sink } = logLines();
    await appWith({ env: { NODE_ENV: "production" }, log: createLogger({ LOG_LEVEL: "info" }, sink) });
    expect(lines.find((line) => line.msg === "SMTP_URL is not set: mail stays in the outbox, unsent")).toMatchObject({ level: 40 });
  });
});
