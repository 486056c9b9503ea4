import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
    // Fails a test whose fake GitHub exchanges depart from GitHub's API description.
    setupFiles: ["test/support/setup.ts"],
  },
});
