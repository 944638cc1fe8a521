import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "../../src/logger.js";
import { buildServer } from "../../src/server.js";
import { createTestApp, type TestApp } from "../support/app.js";
import { FixedClock } from "../support/clock.js";
import { logLines } from "../support/log.js";
import { expiresIn, remindersOf, remindersTo } from "../support/reminders.js";
import { createDriver } from "../support/trips.js";

/**
 * Processes on one PostgreSQL database all look for the document reminders due, at the same times
 * (as they start, then hourly): each reminder goes once all the same. (SQLite serves one process.)
 */
let app: TestApp;
const clock = new FixedClock("2026-03-10T15:00:00Z");
const { lines, sink } = logLines();
const log = createLogger({ LOG_LEVEL: "info" }, sink);
beforeAll(async () => {
  app = await createTestApp({ clock, log });
});
afterAll(() => app.close());

describe("document reminders across processes", () => {
  it("go once when two processes on the same database send them at the same time", async () => {
    const other = await buildServer(app.config, { clock, log });
    try {
      other.startWork();
      // Its first round, as it starts, is over before the documents below fall due.
      await other.nudgeReminders();
      const drivers = [];
      for (let i = 0; i < 4; i++) {
        const driver = await createDriver(app, { online: false });
        for (const document of ["licencia", "soat", "tecnomecanica"] as const) await expiresIn(app, driver, document, 7);
        drivers.push(driver);
      }
      await Promise.all([app.server.nudgeReminders(), other.nudgeReminders()]);
      for (const driver of drivers) {
        expect((await remindersOf(app, driver)).map((reminder) => reminder.documento).sort()).toEqual([
          "licencia",
          "soat",
          "tecnomecanica",
        ]);
        expect(await remindersTo(app, driver.email)).toHaveLength(3);
        expect(await app.db.notification.count({ where: { usuario_id: driver.id, tipo: "documento_por_vencer" } })).toBe(3);
      }
      // The process that lost a reminder to the other says nothing of it.
      expect(lines.filter((line) => (line.level as number) >= 40)).toEqual([]);
    } finally {
      await other.stop();
    }
  });
});
