import { defineConfig } from "vitest/config";
import { LongestFirst } from "./test/sequencer.js";

/**
 * End-to-end files that spend most of their time in real agent programs, sealed attempts and a real registry (publish:
 * two evaluations, npm installs, verdaccio — about three minutes): each about a minute or more of
 * subprocesses, together what took `npm test` past four minutes on two cores (5 min 29 s with them).
 */
export const SLOW_E2E = [
  "test/e2e/agents.test.ts",
  "test/e2e/sealed.test.ts",
  "test/e2e/triggers.test.ts",
  "test/e2e/mcp-eval.test.ts",
  "test/e2e/publish.test.ts",
  "test/e2e/installed-skills.test.ts",
  // A real request validator's server (Prism) per description, four CLIs verified by a second SigV4 implementation, and
  // retries against real clocks: about seventy seconds of subprocesses together, which took npm test past four minutes.
  "test/e2e/prism-wire.test.ts",
  "test/e2e/sigv4.test.ts",
  "test/e2e/retry.test.ts",
];

// `npm run test:slow`: the 20,000-operation document, the whole-corpus design cases and SLOW_E2E, kept out of `npm test`.
export default defineConfig({
  test: {
    include: ["test/slow/**/*.test.ts", ...SLOW_E2E],
    globalSetup: ["test/global-setup.ts"],
    // As in vitest.config.ts: files share long-lived workers, and each file's leftovers are undone when it ends.
    isolate: false,
    setupFiles: ["test/setup-file.ts"],
    // Real agent programs on a loaded two-core machine (a second suite beside this one) take minutes; a test that outlives
    // its bound keeps running beside the next one, so a tight bound fails that one too. No test sets a smaller bound.
    testTimeout: 600_000,
    hookTimeout: 600_000,
    maxWorkers: 2,
    sequence: { sequencer: LongestFirst },
  },
});
