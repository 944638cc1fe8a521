import { loadConfig } from "../config.js";
import { wire } from "../wiring.js";
import { seedDemoData } from "./seed.js";

// Seeds whatever DATABASE_URL names, migrating it first.
const { deps, events, database, outage } = await wire({ ...loadConfig(), DEMO_DATA: false });
const { users } = await seedDemoData(deps);
console.log(`Demo data ready: ${users} accounts (see README for their credentials)`);
outage.stop();
await events.close();
await database.close();
