import { loadConfig } from "../config.js";
import { buildServer } from "../server.js";
import { seedDemoData } from "./seed.js";

// Seeds whatever DATABASE_URL names, migrating it first.
const server = await buildServer({ ...loadConfig(), DEMO_DATA: false });
const { users } = await seedDemoData(server.deps);
console.log(`Demo data ready: ${users} accounts (see README for their credentials)`);
await server.stop();
