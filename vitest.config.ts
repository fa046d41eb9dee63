import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Tests that spawn processes or hold a database are heavier than the 2-core CI can run in full parallel.
    maxWorkers: 2,
    // a private TMPDIR per run; the run fails when anything is left in it (test/support/temp-guard.ts)
    globalSetup: ["test/support/temp-guard.ts"],
    // each test file's temporaryDirectory() folders are removed when the file ends
    setupFiles: ["test/support/remove-temporary-directories.ts"],
  },
});
