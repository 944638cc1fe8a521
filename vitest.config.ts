import { defineConfig } from "vitest/config";

export default defineConfig({
  // Node loads graphql's CommonJS entry for the libraries; the code under test must share that
  // instance or graphql refuses schemas "from another realm".
  resolve: { alias: [{ find: /^graphql$/, replacement: "graphql/index.js" }] },
  test: {
    include: ["test/**/*.test.ts"],
    // Tests of the scale-out mode (several processes, PostgreSQL, Redis) run with npm run test:postgres.
    exclude: process.env.TEST_DATABASE === "postgresql" ? [] : ["test/**/*.postgres.test.ts"],
    globalSetup: ["test/support/global-setup.ts"],
    pool: "forks",
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Each file gets its own database; two cores make more workers than this slower, not faster.
    maxWorkers: 4,
  },
});
