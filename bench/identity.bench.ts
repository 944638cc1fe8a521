import { afterAll, bench, describe } from "vitest";
import { createTestApp } from "../test/support/app.js";
import { createDriver } from "../test/support/trips.js";

// What knowing the caller costs a legacy call: the id it carries (LEGACY_AUTH=ids) against a
// session token looked up in the database, on the driver's profile read the apps make often.
const app = await createTestApp();
afterAll(() => app.close());
const driver = await createDriver(app);
const bearer = await app.bearer(driver.id);
const profile = (headers: Record<string, string> = {}) =>
  app.legacy("GET", "/conductor/get_profile.php", { conductor_id: String(driver.id) }, headers);

describe("GET /conductor/get_profile.php, in-process", () => {
  bench("caller known by the conductor_id it sends", async () => {
    await profile();
  });
  bench("caller known by a Bearer token", async () => {
    await profile(bearer);
  });
});

describe("GraphQL driverProfile, in-process", () => {
  const QUERY = `{ driverProfile { __typename } }`;
  bench("with a Bearer token", async () => {
    await app.graphql(QUERY, {}, driver.id);
  });
  bench("anonymous, refused before it runs", async () => {
    await app.graphql(QUERY);
  });
});
