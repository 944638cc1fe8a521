import Sqlite from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sqliteFile } from "../../src/db/url.js";
import { createLogger } from "../../src/logger.js";
import { createTestApp, type TestApp } from "../support/app.js";
import { FixedClock } from "../support/clock.js";
import { createTestDatabase, type TestDatabase } from "../support/database.js";
import { logLines } from "../support/log.js";
import { watchRejections } from "../support/rejections.js";
import { expiresIn, remindersOf } from "../support/reminders.js";
import { createDriver } from "../support/trips.js";

/**
 * Reminders while the database cannot take writes (a SQLite file another process holds): the round
 * ends, counted in the outage rather than logged as an error, nothing is left half done and no
 * promise is left rejected; the next round sends them.
 */
const rejections = watchRejections();
let database: TestDatabase;
let app: TestApp;
const { lines, sink } = logLines();
beforeAll(async () => {
  database = await createTestDatabase("sqlite");
  app = await createTestApp({
    clock: new FixedClock("2026-03-10T15:00:00Z"),
    env: { DATABASE_URL: database.url },
    log: createLogger({ LOG_LEVEL: "info" }, sink),
  });
});
afterAll(async () => {
  await app?.close();
  await database?.drop();
  expect(rejections).toEqual([]);
});

describe("document reminders while the database cannot write", () => {
  it("wait for the next round, counted in the outage", async () => {
    const drivers = [await createDriver(app, { online: false }), await createDriver(app, { online: false })];
    for (const driver of drivers) await expiresIn(app, driver, "soat", 7);
    const other = new Sqlite(sqliteFile(database.url));
    try {
      other.prepare("BEGIN IMMEDIATE").run();
      await app.server.nudgeReminders();
    } finally {
      other.close();
    }
    for (const driver of drivers) expect(await remindersOf(app, driver)).toEqual([]);
    expect(await app.db.outboxMail.count({ where: { asunto: { startsWith: "Vence " } } })).toBe(0);
    expect(lines).toContainEqual(
      expect.objectContaining({
        first: "document reminders",
        msg: "database unavailable: requests are answered 503 and background work waits",
      }),
    );
    expect(lines.filter((line) => line.level === 50)).toEqual([]);

    await app.server.nudgeReminders();
    for (const driver of drivers) expect(await remindersOf(app, driver)).toHaveLength(1);
  });
});
