import { defineConfig } from "vitest/config";

// `npm run test:slow`: the 20,000-operation document and the whole-corpus design cases, kept out of `npm test`.
export default defineConfig({
  test: {
    include: ["test/slow/**/*.test.ts"],
    globalSetup: ["test/global-setup.ts"],
    testTimeout: 300_000,
    hookTimeout: 300_000,
    maxWorkers: 2,
  },
});
