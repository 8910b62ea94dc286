import { defineConfig } from "vitest/config";
import { LongestFirst } from "./test/sequencer.js";

// `npm run test:slow`: what is in test/slow/ — the 20,000-operation document, the whole-corpus design cases, the real
// agent programs, sealed and hostile agents, a real registry, the request validator's server per description, the
// MCP conformance suite on its own Node, a real browser for the reports, and the end-to-end scenarios of many builds
// or evaluations each (the cache, the remote cache, the watcher, faults, the design model, surface diffs, init,
// sharded, compared and strength-judged evaluations) — kept out of `npm test`: most of these files spend a minute or
// more in subprocesses.
export default defineConfig({
  test: {
    include: ["test/slow/**/*.test.ts"],
    exclude: ["**/node_modules/**"],
    globalSetup: ["test/global-setup.ts"],
    // As in vitest.config.ts: files share long-lived workers, and each file's leftovers are undone when it ends.
    isolate: false,
    setupFiles: ["test/setup-file.ts"],
    // Real agent programs on a loaded two-core machine (a second suite beside this one) take minutes; a test that outlives
    // its bound keeps running beside the next one, so a tight bound fails that one too. No test sets a smaller bound.
    testTimeout: 600_000,
    hookTimeout: 600_000,
    // Most of these files wait on programs (agents, a registry, npm, servers) more than they compute: a run with two
    // workers kept the two cores less than half busy, so four fill the waits, as in vitest.config.ts.
    maxWorkers: 4,
    sequence: { sequencer: LongestFirst },
  },
});
