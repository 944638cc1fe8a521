import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../../src/db/client.js";
import { createTestDatabase, type TestDatabase } from "../support/database.js";
import { startService } from "../support/process.js";
import { sharedTripOn, streamOn } from "../support/shares.js";

let database: TestDatabase;
let db: Database;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await db?.close();
  await database.drop();
});

describe("a process that stops", () => {
  it("ends the streams of the share pages open on it at once, rather than after the grace period", async () => {
    const service = await startService({ DATABASE_URL: database.url, SHUTDOWN_TIMEOUT_MS: "10000" });
    db = await openDatabase(database.url);
    const { token } = await sharedTripOn(service, db.prisma);
    const stream = await streamOn(service, token);
    try {
      expect((await stream.next()).event).toBe("viaje");
      const stopping = Date.now();
      expect(await service.stop("SIGTERM")).toBe(0);
      expect(Date.now() - stopping).toBeLessThan(5000);
      // The page then falls back to polling, another process if there is one.
      await stream.ended;
    } finally {
      stream.leave();
      await service.stop();
    }
  });
});
