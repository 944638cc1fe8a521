import { setTimeout as delay } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../../src/db/client.js";
import { queueMail } from "../../src/domain/mail/outbox.js";
import { adminQuery, createTestDatabase, type TestDatabase } from "../support/database.js";
import { uniqueEmail } from "../support/fixtures.js";
import { registerOn, startService, type ServiceProcess } from "../support/process.js";
import { startSmtp, type TestSmtp } from "../support/smtp.js";

/** Two service processes on one PostgreSQL database relay one outbox to one SMTP server. */
let database: TestDatabase;
let smtp: TestSmtp;
let services: ServiceProcess[] = [];
let db: Database;
const SOON = { timeout: 30_000, interval: 50 };

beforeAll(async () => {
  database = await createTestDatabase("postgresql");
  smtp = await startSmtp();
  const env = {
    DATABASE_URL: database.url,
    SMTP_URL: smtp.url,
    MAIL_FROM: "no-responder@pingo.test",
    MAIL_POLL_MS: "200",
    MAIL_RETRY_S: "0.1",
    MAIL_MAX_ATTEMPTS: "50",
  };
  // One after the other: the first applies the migrations.
  services = [await startService(env), await startService(env)];
  db = await openDatabase(database.url);
});

afterAll(async () => {
  await Promise.all(services.map((service) => service.stop()));
  await db?.close();
  await smtp?.close();
  await database?.drop();
});

/** The service's JSON log lines with this message. */
const logged = (service: ServiceProcess, msg: string) =>
  service
    .output()
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line))
    .filter((line) => line.msg === msg);

describe("the outbox relayed by two processes", () => {
  it("sends each of 40 mails exactly once and marks every row enviado", async () => {
    const [a, b] = services as [ServiceProcess, ServiceProcess];
    // Half queued by registrations on either process (each nudges its own relay)…
    const registered = await Promise.all(Array.from({ length: 20 }, (_, i) => registerOn(i % 2 ? a : b, "pasajero")));
    // …half written straight to the outbox, for both relays to find on their rounds at the same time.
    const direct = Array.from({ length: 20 }, () => uniqueEmail("directo"));
    await db.prisma.$transaction(async (tx) => {
      for (const destinatario of direct) await queueMail(tx, new Date(), { destinatario, asunto: "Prueba", cuerpo: "Hola" });
    });

    await expect.poll(() => db.prisma.outboxMail.count({ where: { estado: "enviado" } }), SOON).toBe(40);
    expect(await db.prisma.outboxMail.count()).toBe(40);
    const messageIds = smtp.received.map((mail) => mail.messageId);
    expect(messageIds).toHaveLength(40);
    expect(new Set(messageIds).size).toBe(40);
    expect(smtp.received.flatMap((mail) => mail.to).sort()).toEqual([...registered.map((user) => user.email), ...direct].sort());
  });

  it("outlives the database going away with one warning per process, and sends what is queued once it is back", async () => {
    const name = new URL(database.url).pathname.slice(1);
    const warning = "mail relay: the database fails; mail waits in the outbox";
    const recovery = "mail relay: the database answers again";
    await adminQuery(`ALTER DATABASE ${name} WITH ALLOW_CONNECTIONS false`);
    try {
      await adminQuery(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${name}'`);
      await expect.poll(() => services.every((service) => logged(service, warning).length > 0), SOON).toBe(true);
      // A few more rounds fail while it stays away.
      await delay(1000);
    } finally {
      await adminQuery(`ALTER DATABASE ${name} WITH ALLOW_CONNECTIONS true`);
    }
    await expect.poll(() => services.every((service) => logged(service, recovery).length > 0), SOON).toBe(true);
    for (const service of services) {
      expect(service.child.exitCode).toBeNull();
      expect(logged(service, warning)).toHaveLength(1);
      expect(logged(service, warning)[0]).toMatchObject({ level: 40 });
      expect(logged(service, recovery)[0].failures).toBeGreaterThan(1);
    }

    const user = await registerOn(services[0]!, "pasajero");
    await smtp.waitFor((mail) => mail.to.includes(user.email), 30_000);
    await expect.poll(() => db.prisma.outboxMail.count({ where: { destinatario: user.email, estado: "enviado" } }), SOON).toBe(1);
    expect(smtp.received.filter((mail) => mail.to.includes(user.email))).toHaveLength(1);
  });
});
