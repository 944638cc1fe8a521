import { defineConfig } from "vitest/config";

// The console in a real Chromium (npm run test:browser, which builds first): the built service as a
// child process per test file, driven through playwright-core. Kept out of `npm test`, which must
// pass on a machine without Chromium; these files end in .browser.ts, which vitest.config.ts skips.
export default defineConfig({
  test: {
    include: ["test/browser/**/*.browser.ts"],
    pool: "forks",
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // A service and a Chromium per file: two at a time on two cores.
    maxWorkers: 2,
  },
});
