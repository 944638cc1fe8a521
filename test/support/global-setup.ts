import pg from "pg";
import { postgresAdminUrl, testProvider } from "./database.js";

/** Fails fast, with a useful message, when the PostgreSQL run has no server to talk to. */
export default async function setup() {
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
