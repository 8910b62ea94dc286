import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // The 20,000-operation and whole-corpus cases: `npm run test:slow` (CI runs both).
    exclude: ["test/slow/**", "node_modules/**"],
    globalSetup: ["test/global-setup.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // End-to-end tests spawn the real binary and spend much of their time waiting on it, on npm and on agents: a third
    // worker fills those waits on two cores (measured: 253 s with two, 240 s with three).
    maxWorkers: 3,
  },
});
