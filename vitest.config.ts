import { defineConfig } from "vitest/config";
import { LongestFirst } from "./test/sequencer.js";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // test/slow/ is `npm run test:slow` (the README's test command runs both).
    exclude: ["test/slow/**", "test/tools/**", "**/node_modules/**"],
    globalSetup: ["test/global-setup.ts"],
    // Files run one after another in a few long-lived workers that keep their modules: a fresh worker per file cost
    // about a second of CPU each, 80 of them a fifth of the suite. What a file makes is undone when it ends
    // (test/setup-file.ts); a test that changes the process's state (its environment, a spy) restores it.
    isolate: false,
    setupFiles: ["test/setup-file.ts"],
    // Sized for a loaded two-core machine (a second suite or a build beside this one): the longest end-to-end tests
    // take about a minute there, and a timeout is a verdict on the machine, not on the code.
    testTimeout: 180_000,
    hookTimeout: 180_000,
    // End-to-end tests spawn the real binary and spend much of their time waiting on it, on npm and on agents: more
    // workers than cores fill those waits (measured on two cores: 253 s with two, 240 s with three; later, clean
    // clones without recorded durations, interleaved: 218 and 222 s with four against 225 and 251 s with three).
    maxWorkers: 4,
    // Long files first, also on a clean clone that has no recorded durations (test/sequencer.ts).
    sequence: { sequencer: LongestFirst },
  },
});
