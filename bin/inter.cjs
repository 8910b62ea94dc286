#!/usr/bin/env node
"use strict";
// A warm no-op `inter build` is answered by a small module from its saved record (src/cli/noop-fast-path.ts);
// everything else loads the CLI. This entry is CommonJS: an ES module entry starts Node's module loader first, a
// cost the size of the no-op's whole answer (~7 % of it, measured in bench/noop-build.mjs).
const { answerNoop } = require("../lib/noop.cjs");

if (!answerNoop(process.argv.slice(2))) {
  lessEagerOptimizing();
  import("../lib/cli.js");
}

/**
 * V8 optimizes a function once it has run a fixed amount of bytecode (its interrupt budget). A build lives seconds and
 * runs much of its code briefly (each stage's pass over the commands), so at V8's default most of what the optimizing
 * compiler does on its background threads is for code that is done before it pays back: on a 4.4 MB description's
 * cold build that compiling was ~0.6 s of the process's ~2.2 s of CPU. At four times the default it compiles what
 * stays hot: 11–14 % less CPU for the cold builds of bench/cold-build.mjs on one core, ~3 % on Graph beta's 30 s
 * build, the same wall time on two cores (docs/architecture.md, "A seventeenth round"). The flag is read whenever a
 * function's budget is renewed, so it holds for all the code loaded after this line. Set only on the V8 of Node 20,
 * where it was measured: another V8 tiers up differently (and would print an error for a flag it has renamed).
 */
function lessEagerOptimizing() {
  if (process.versions.v8.startsWith("11.")) require("node:v8").setFlagsFromString("--interrupt-budget=270336");
}
