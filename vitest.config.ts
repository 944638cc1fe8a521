import { defineConfig } from "vitest/config";

export default defineConfig({
  // Node loads graphql's CommonJS entry for the libraries; the code under test must share that
  // instance or graphql refuses schemas "from another realm".
  resolve: { alias: [{ find: /^graphql$/, replacement: "graphql/index.js" }] },
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/support/global-setup.ts"],
    pool: "forks",
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Each file gets its own database; two cores make more workers than this slower, not faster.
    maxWorkers: 4,
  },
});
