/**
 * The service's code the bench runs, as `npm start` runs it: compiled into build/ by `npm run build`
 * (which `npm run bench` runs first), typed as its sources.
 */
const load = <Module>(path: string): Promise<Module> => import(new URL(`../build/${path}`, import.meta.url).href);

export const { loadConfig } = await load<typeof import("../src/config.js")>("config.js");
export const { openDatabase } = await load<typeof import("../src/db/client.js")>("db/client.js");
export const { applyMigrations } = await load<typeof import("../src/db/migrate.js")>("db/migrate.js");
export const { openSession } = await load<typeof import("../src/domain/accounts/sessions.js")>("domain/accounts/sessions.js");
export const { buildServer } = await load<typeof import("../src/server.js")>("server.js");
export const { greatCircleKm } = await load<typeof import("../src/domain/geo.js")>("domain/geo.js");
export const { DriverGeoIndex } = await load<typeof import("../src/domain/presence/geo-index.js")>("domain/presence/geo-index.js");
export const { splitFare } = await load<typeof import("../src/domain/money/fare-split.js")>("domain/money/fare-split.js");
