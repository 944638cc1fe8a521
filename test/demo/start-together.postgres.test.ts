import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openDatabase } from "../../src/db/client.js";
import { DEMO_ADMIN, DEMO_COMPANY, DEMO_DRIVERS, DEMO_PASSENGERS } from "../../src/demo/demo-data.js";
import { createTestDatabase } from "../support/database.js";
import { startPair } from "../support/process.js";

/**
 * The scale-out recipe of docs/operations.md followed literally: two processes started at the same
 * moment on a new PostgreSQL database, demo data on. Both serve; the migrations and the demo
 * accounts are made once, with the ids the README's demo accounts and the docs' examples use.
 */
const DEMO_EMAILS = [DEMO_ADMIN, ...DEMO_PASSENGERS, ...DEMO_DRIVERS, DEMO_COMPANY.gestor].map((person) => person.email);

describe("two processes started together on a new database", () => {
  it.each([1, 2, 3])("both serve, and load the demo accounts once, with the same ids every time (round %i)", async () => {
    const database = await createTestDatabase("postgresql");
    const uploads = mkdtempSync(join(tmpdir(), "rh-uploads-"));
    const [a, b] = await startPair(database.url, { DEMO_DATA: "true", UPLOAD_DIR: uploads });
    const db = await openDatabase(database.url);
    try {
      const users = await db.prisma.user.findMany({ orderBy: { id: "asc" }, select: { id: true, email: true } });
      // In the order they are listed, from 1: driver 6 and passenger 2 of the docs' examples among them.
      expect(users).toEqual(DEMO_EMAILS.map((email, index) => ({ id: index + 1, email })));
      for (const service of [a, b]) {
        expect(service.output()).toContain('"msg":"demo data ready"');
        expect(service.output()).not.toMatch(/"level":(50|60)/);
        const login = await fetch(`http://127.0.0.1:${service.port}/auth/check_user.php`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ email: DEMO_ADMIN.email }),
        });
        expect((await login.json()).exists).toBe(true);
      }
    } finally {
      expect(await Promise.all([a.stop(), b.stop()])).toEqual([0, 0]);
      await db.close();
      await database.drop();
      rmSync(uploads, { recursive: true, force: true });
    }
  });
});
