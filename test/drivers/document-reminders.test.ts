import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "../../src/logger.js";
import { buildServer } from "../../src/server.js";
import { createTestApp, type TestApp } from "../support/app.js";
import { FixedClock } from "../support/clock.js";
import { activeCompany } from "../support/companies.js";
import { newAdmin } from "../support/drivers.js";
import { uniqueEmail } from "../support/fixtures.js";
import { logLines } from "../support/log.js";
import { type ExpiringDocument, expiresIn, inDays, remindersOf, remindersTo } from "../support/reminders.js";
import { createDriver } from "../support/trips.js";

/** Drivers and their companies are told by mail 30, 7 and 1 days before a document expires, once each. */
let app: TestApp;
let admin: { id: number };
// 10:00 in Bogotá: whole days later it is still mid-morning there.
const clock = new FixedClock("2026-03-10T15:00:00Z");
const { lines, sink } = logLines();
beforeAll(async () => {
  app = await createTestApp({ clock, log: createLogger({ LOG_LEVEL: "info" }, sink) });
  admin = await newAdmin(app);
});
afterAll(() => app.close());

const LABELS: Record<ExpiringDocument, string> = {
  licencia: "la licencia de conducción",
  soat: "el SOAT",
  tecnomecanica: "la revisión técnico-mecánica",
};
const DAY_MS = 24 * 3600 * 1000;

const aDriver = () => createDriver(app, { online: false });

const run = () => app.server.nudgeReminders();
const later = async (days: number) => {
  clock.advance(days * DAY_MS);
  await run();
};

describe("document reminders", () => {
  it.each(["licencia", "soat", "tecnomecanica"] as const)(
    "remind a driver of their %s 30, 7 and 1 days before it expires, once each, naming it, its date and the days left",
    async (document) => {
      const driver = await aDriver();
      const label = LABELS[document];
      const date = inDays(app, 31);
      const vence_en = await expiresIn(app, driver, document, 31);
      // Days left at each round, and the thresholds reminded of by then.
      const rounds: Array<[number, number[]]> = [
        [31, []],
        [30, [30]],
        [30, [30]],
        [29, [30]],
        [8, [30]],
        [7, [30, 7]],
        [2, [30, 7]],
        [1, [30, 7, 1]],
        [0, [30, 7, 1]],
        [-1, [30, 7, 1]],
      ];
      let left = 31;
      for (const [daysLeft, sent] of rounds) {
        clock.advance((left - daysLeft) * DAY_MS);
        left = daysLeft;
        await run();
        expect(
          (await remindersOf(app, driver)).map((reminder) => reminder.dias),
          `${daysLeft} days left`,
        ).toEqual(sent);
      }
      expect((await remindersOf(app, driver))[0]).toEqual({ documento: document, vence_en, dias: 30 });
      const [first] = await remindersTo(app, driver.email);
      expect(first!.cuerpo).toContain(`Según tus datos, ${label} vence el ${date} (en 30 días).`);
      expect(first!.cuerpo).toContain("con un documento vencido no podrás conectarte");
      expect((await remindersTo(app, driver.email)).map((mail) => mail.asunto)).toEqual([
        `Vence ${label} en 30 días · Viax`,
        `Vence ${label} en 7 días · Viax`,
        `Vence ${label} mañana · Viax`,
      ]);
      expect(await app.db.notification.count({ where: { usuario_id: driver.id, tipo: "documento_por_vencer" } })).toBe(3);
    },
  );

  it("send only the tightest reminder due when a document is first seen past several, never the earlier ones", async () => {
    const driver = await aDriver();
    const vence_en = await expiresIn(app, driver, "licencia", 5);
    const today = await aDriver();
    const endOfToday = await expiresIn(app, today, "soat", 0);
    await run();
    expect(await remindersOf(app, driver)).toEqual([{ documento: "licencia", vence_en, dias: 7 }]);
    expect((await remindersTo(app, driver.email))[0]!.cuerpo).toContain(`vence el ${inDays(app, 5)} (en 5 días)`);
    expect(await remindersOf(app, today)).toEqual([{ documento: "soat", vence_en: endOfToday, dias: 1 }]);
    expect((await remindersTo(app, today.email)).map((mail) => mail.asunto)).toEqual(["Vence el SOAT hoy · Viax"]);

    await later(4);
    expect((await remindersOf(app, driver)).map((reminder) => reminder.dias)).toEqual([7, 1]);
    // Once expired, nothing more: going online is what refuses it now.
    await later(2);
    expect(await remindersOf(app, driver)).toHaveLength(2);
    expect(await remindersOf(app, today)).toHaveLength(1);
  });

  it("remind again for a renewed document, by its new date", async () => {
    const driver = await aDriver();
    const old = await expiresIn(app, driver, "soat", 7);
    await run();
    const renewed = await expiresIn(app, driver, "soat", 30);
    await run();
    expect(await remindersOf(app, driver)).toEqual([
      { documento: "soat", vence_en: old, dias: 7 },
      { documento: "soat", vence_en: renewed, dias: 30 },
    ]);
  });

  it("tell every manager of the driver's company as well, naming the driver", async () => {
    const { manager, company } = await activeCompany(app, admin.id, "Taxis del Valle");
    const partner = await app.db.user.create({
      data: {
        email: uniqueEmail("socia"),
        nombre: "Sara",
        apellido: "Socia",
        telefono: "3001112233",
        password_hash: "unused",
        tipo_usuario: "empresa",
        empresa_id: company.id,
      },
    });
    const driver = await aDriver();
    await app.db.user.update({ where: { id: driver.id }, data: { empresa_id: company.id } });
    const alone = await aDriver();
    await expiresIn(app, driver, "tecnomecanica", 7);
    await expiresIn(app, alone, "tecnomecanica", 7);
    await run();

    expect(await remindersTo(app, driver.email)).toHaveLength(1);
    for (const { email } of [manager, partner]) {
      const mails = await remindersTo(app, email);
      expect(mails.map((mail) => mail.asunto)).toEqual(["Vence la revisión técnico-mecánica de Ana Restrepo en 7 días · Viax"]);
      expect(mails[0]!.cuerpo).toContain(
        `Según sus datos, la revisión técnico-mecánica de Ana Restrepo vence el ${inDays(app, 7)} (en 7 días). Si no renueva el documento`,
      );
    }
    expect(await app.db.notification.count({ where: { usuario_id: manager.id, tipo: "documento_por_vencer" } })).toBe(1);
    // A driver of no company: only they are told.
    expect(await remindersTo(app, alone.email)).toHaveLength(1);
    expect(await app.db.outboxMail.count({ where: { asunto: { contains: "técnico-mecánica de Ana Restrepo" } } })).toBe(2);
  });

  it("leave out drivers whose account is deactivated", async () => {
    const driver = await aDriver();
    await app.db.user.update({ where: { id: driver.id }, data: { es_activo: false } });
    await expiresIn(app, driver, "licencia", 1);
    await run();
    expect(await remindersOf(app, driver)).toEqual([]);
  });

  it("record the reminder only with its mails: when one cannot be queued, neither is anything else, and the next round sends it", async () => {
    const { manager, company } = await activeCompany(app, admin.id, "Motos del Sur");
    const driver = await aDriver();
    await app.db.user.update({ where: { id: driver.id }, data: { empresa_id: company.id } });
    const vence_en = await expiresIn(app, driver, "soat", 30);
    await refuseMailTo(manager.email);
    try {
      await run();
    } finally {
      await acceptMailAgain();
    }
    expect(await remindersOf(app, driver)).toEqual([]);
    expect(await remindersTo(app, driver.email)).toEqual([]);
    expect(await app.db.notification.count({ where: { usuario_id: driver.id, tipo: "documento_por_vencer" } })).toBe(0);
    expect(lines).toContainEqual(
      expect.objectContaining({ msg: "document reminders: could not send one; it is tried again next round", conductor_id: driver.id }),
    );

    await run();
    expect(await remindersOf(app, driver)).toEqual([{ documento: "soat", vence_en, dias: 30 }]);
    expect(await remindersTo(app, driver.email)).toHaveLength(1);
    expect(await remindersTo(app, manager.email)).toHaveLength(1);
  });

  it("are sent by a process as it starts, and not again by the next one", async () => {
    const sent = await aDriver();
    await expiresIn(app, sent, "licencia", 7);
    await run();
    const due = await aDriver();
    await expiresIn(app, due, "soat", 7);
    const other = await buildServer(app.config, { clock });
    try {
      other.startWork();
      await expect.poll(() => remindersOf(app, due), { timeout: 15_000, interval: 20 }).toHaveLength(1);
      await other.nudgeReminders();
    } finally {
      await other.stop();
    }
    expect(await remindersOf(app, sent)).toHaveLength(1);
    expect(await remindersTo(app, sent.email)).toHaveLength(1);
    expect(await remindersTo(app, due.email)).toHaveLength(1);
  });
});

/** From now on the outbox refuses mail to `address`, as a database constraint would. */
async function refuseMailTo(address: string) {
  if (app.server.deps.provider === "sqlite") {
    await app.db.$executeRawUnsafe(
      `CREATE TRIGGER rechaza_correo BEFORE INSERT ON correos_salientes WHEN NEW.destinatario = '${address}'
       BEGIN SELECT RAISE(ABORT, 'correo rechazado'); END`,
    );
    return;
  }
  await app.db.$executeRawUnsafe(
    `CREATE FUNCTION rechaza_correo() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'correo rechazado'; END $$`,
  );
  await app.db.$executeRawUnsafe(
    `CREATE TRIGGER rechaza_correo BEFORE INSERT ON correos_salientes FOR EACH ROW
     WHEN (NEW.destinatario = '${address}') EXECUTE FUNCTION rechaza_correo()`,
  );
}

async function acceptMailAgain() {
  if (app.server.deps.provider === "sqlite") {
    await app.db.$executeRawUnsafe("DROP TRIGGER rechaza_correo");
    return;
  }
  await app.db.$executeRawUnsafe("DROP TRIGGER rechaza_correo ON correos_salientes");
  await app.db.$executeRawUnsafe("DROP FUNCTION rechaza_correo()");
}
