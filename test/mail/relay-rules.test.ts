import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { OutgoingMail } from "../../src/domain/deps.js";
import { queueMail } from "../../src/domain/mail/outbox.js";
import { startMailRelay, type MailRelay, type RelayOptions } from "../../src/domain/mail/relay.js";
import { createLogger } from "../../src/logger.js";
import { smtpSender } from "../../src/adapters/mail/smtp.js";
import { createTestApp, type TestApp } from "../support/app.js";
import { FixedClock } from "../support/clock.js";
import { uniqueEmail } from "../support/fixtures.js";
import { watchRejections } from "../support/rejections.js";
import { startSmtp, type TestSmtp } from "../support/smtp.js";

/** The relay driven pass by pass (nudge resolves when a pass is over), on a clock that moves only when told. */
const MINUTE = 60_000;
const RETRY_MS = 30 * MINUTE;
const SEND_TIMEOUT_MS = 10_000;

let app: TestApp;
let smtp: TestSmtp;
let clock: FixedClock;
const rejections = watchRejections();
const cleanups: Array<() => Promise<unknown> | unknown> = [];

beforeAll(async () => {
  app = await createTestApp();
  smtp = await startSmtp();
});
beforeEach(() => {
  clock = new FixedClock();
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  smtp.release();
  smtp.refuse(null);
  await app.db.outboxMail.deleteMany();
  smtp.received.length = 0;
});
afterAll(async () => {
  await app?.close();
  await smtp?.close();
  expect(rejections).toEqual([]);
});

function relay(options: Partial<RelayOptions> = {}): MailRelay {
  const sender = smtpSender({ url: smtp.url, from: "no-responder@pingo.test", timeoutMs: SEND_TIMEOUT_MS });
  const started = startMailRelay(
    { db: app.db, clock, log: createLogger({ LOG_LEVEL: "silent" }) },
    {
      send: sender.send,
      pollMs: 600_000,
      maxAttempts: 4,
      retryMs: RETRY_MS,
      sendTimeoutMs: SEND_TIMEOUT_MS,
      stopWaitMs: 10_000,
      ...options,
    },
  );
  cleanups.push(sender.close, started.stop);
  return started;
}

async function queue(count: number, fields: Partial<OutgoingMail> = {}): Promise<number[]> {
  const mails = Array.from({ length: count }, () => ({ destinatario: uniqueEmail("correo"), asunto: "Prueba", cuerpo: "Hola", ...fields }));
  await app.db.$transaction(async (tx) => {
    for (const mail of mails) await queueMail(tx, clock.now(), mail);
  });
  const rows = await app.db.outboxMail.findMany({
    where: { destinatario: { in: mails.map((m) => m.destinatario) } },
    orderBy: { id: "asc" },
  });
  return rows.map((row) => row.id);
}

const row = (id: number) => app.db.outboxMail.findUniqueOrThrow({ where: { id } });
const at = (base: Date, ms: number) => new Date(base.getTime() + ms);

describe("the mail relay, pass by pass", () => {
  it("tries a refused mail again after a wait that doubles up to an hour, and marks it fallido after the last attempt", async () => {
    const start = clock.now();
    const [id] = await queue(1);
    smtp.refuse(451);
    const mails = relay();
    await mails.nudge();
    expect(await row(id!)).toMatchObject({ estado: "pendiente", intentos: 1, proximo_intento: at(start, RETRY_MS), reclamado_hasta: null });
    expect((await row(id!)).ultimo_error).toMatch(/451/);

    clock.set(at(start, RETRY_MS));
    await mails.nudge();
    expect(await row(id!)).toMatchObject({ estado: "pendiente", intentos: 2, proximo_intento: at(start, RETRY_MS + 60 * MINUTE) });
    // Twice an hour would be two hours: the wait stops growing at one.
    clock.set(at(start, RETRY_MS + 60 * MINUTE));
    await mails.nudge();
    expect(await row(id!)).toMatchObject({ estado: "pendiente", intentos: 3, proximo_intento: at(start, RETRY_MS + 120 * MINUTE) });

    clock.set(at(start, RETRY_MS + 120 * MINUTE));
    await mails.nudge();
    expect(await row(id!)).toMatchObject({ estado: "fallido", intentos: 4, enviado_en: null, cuerpo: "" });

    smtp.refuse(null);
    clock.advance(24 * 60 * MINUTE);
    await mails.nudge();
    expect(await row(id!)).toMatchObject({ estado: "fallido", intentos: 4 });
    expect(smtp.received).toHaveLength(0);
  });

  it("marks a mail the server refuses for good (5xx) fallido after one attempt", async () => {
    const [id] = await queue(1);
    smtp.refuse(550);
    await relay().nudge();
    const refused = await row(id!);
    expect(refused).toMatchObject({ estado: "fallido", intentos: 1 });
    expect(refused.ultimo_error).toMatch(/550/);
  });

  it("stops a pass at the first mail the server fails, so the others keep their attempts, and sends them all once it answers", async () => {
    const ids = await queue(3);
    smtp.refuse(421);
    const mails = relay();
    // The pass that starts with the relay, then one more: each tries one mail.
    await mails.nudge();
    expect((await app.db.outboxMail.findMany({ orderBy: { id: "asc" } })).map((mail) => mail.intentos)).toEqual([1, 1, 0]);

    smtp.refuse(null);
    clock.advance(RETRY_MS);
    await mails.nudge();
    expect(await app.db.outboxMail.findMany({ where: { id: { in: ids } }, select: { estado: true } })).toEqual(
      ids.map(() => ({ estado: "enviado" })),
    );
    expect(smtp.received).toHaveLength(3);
  });

  it("marks a mail whose expiry has passed vencido without sending it", async () => {
    const [late] = await queue(1, { vence_en: at(clock.now(), -1) });
    const [timely] = await queue(1, { vence_en: at(clock.now(), MINUTE) });
    await relay().nudge();
    // What a mail carried (a code, a link that follows a trip) is not kept once it will never be sent.
    expect(await row(late!)).toMatchObject({ estado: "vencido", intentos: 0, enviado_en: null, cuerpo: "" });
    expect(await row(timely!)).toMatchObject({ estado: "enviado", cuerpo: "" });
    expect(smtp.received[0]?.text).toContain("Hola");
    expect(smtp.received.map((mail) => mail.to)).toEqual([[(await row(timely!)).destinatario]]);
  });

  it("leaves a mail another process has claimed until its lease ends, then sends it", async () => {
    const [id] = await queue(1);
    // As a process that claimed it and died would have left it.
    await app.db.outboxMail.update({ where: { id }, data: { intentos: 1, reclamado_hasta: at(clock.now(), MINUTE) } });
    const mails = relay();
    await mails.nudge();
    expect(await row(id!)).toMatchObject({ estado: "pendiente", intentos: 1 });
    expect(smtp.received).toHaveLength(0);

    clock.advance(MINUTE);
    await mails.nudge();
    expect(await row(id!)).toMatchObject({ estado: "enviado", intentos: 2 });
    expect(smtp.received).toHaveLength(1);
  });

  it("sends each mail once when two relays work one outbox at the same time", async () => {
    const ids = await queue(25);
    const [first, second] = [relay(), relay()];
    await Promise.all([first.nudge(), second.nudge()]);
    expect(await app.db.outboxMail.count({ where: { id: { in: ids }, estado: "enviado", intentos: 1 } })).toBe(25);
    const messageIds = smtp.received.map((mail) => mail.messageId);
    expect(messageIds).toHaveLength(25);
    expect(new Set(messageIds).size).toBe(25);
  });

  it("holds a mail under a lease longer than a send may take, and stop() waits for the send in flight to be recorded", async () => {
    const [id] = await queue(1);
    smtp.hold();
    const mails = relay();
    await expect.poll(() => smtp.holding(), { timeout: 10_000 }).toBe(1);
    const inFlight = await row(id!);
    expect(inFlight).toMatchObject({ estado: "pendiente", intentos: 1 });
    expect(inFlight.reclamado_hasta!.getTime()).toBeGreaterThan(clock.now().getTime() + 2 * SEND_TIMEOUT_MS);

    const stopped = mails.stop();
    smtp.release();
    await stopped;
    expect(await row(id!)).toMatchObject({ estado: "enviado", reclamado_hasta: null });
  });

  it("gives up a send that outlasts the SMTP timeout, and one still in flight when stop() has waited long enough", async () => {
    const [slow, stuck] = await queue(2);
    smtp.hold();
    const mails = relay({ sendTimeoutMs: 300 });
    await expect.poll(async () => (await row(slow!)).ultimo_error, { timeout: 10_000 }).toBeTruthy();
    expect(await row(slow!)).toMatchObject({ estado: "pendiente", intentos: 1, reclamado_hasta: null });

    const stopping = relay({ stopWaitMs: 100 });
    await mails.stop();
    await expect.poll(async () => (await row(stuck!)).intentos, { timeout: 10_000 }).toBe(1);
    await stopping.stop();
    expect(await row(stuck!)).toMatchObject({ estado: "pendiente", intentos: 1, reclamado_hasta: null });
    expect((await row(stuck!)).ultimo_error).toBeTruthy();
  });
});
