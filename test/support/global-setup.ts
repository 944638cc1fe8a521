import { execFileSync } from "node:child_process";
import pg from "pg";
import { postgresAdminUrl, testProvider } from "./database.js";

/**
 * Builds the service as `npm start` runs it, for the tests that start its process (support/process.ts),
 * and fails fast, with a useful message, when the PostgreSQL run has no server to talk to.
 */
export default async function setup() {
  execFileSync(process.execPath, ["scripts/build.mjs"], { stdio: "inherit" });
  if (testProvider !== "postgresql") return;
  const client = new pg.Client({ connectionString: postgresAdminUrl });
  try {
    await client.connect();
  } catch (error) {
    throw new Error(`TEST_DATABASE=postgresql needs a server at ${postgresAdminUrl}: ${(error as Error).message}`);
  } finally {
    await client.end().catch(() => undefined);
  }
}
