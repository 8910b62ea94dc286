#!/usr/bin/env node
"use strict";
// A warm no-op `inter build` is answered by a small module from its saved record (src/cli/noop-fast-path.ts);
// everything else loads the CLI. This entry is CommonJS: an ES module entry starts Node's module loader first, a
// cost that shows in the no-op's whole answer (bench/noop-build.mjs times it).
const { answerNoop } = require("../lib/noop.cjs");

if (!answerNoop(process.argv.slice(2))) {
  lessEagerOptimizing();
  import("../lib/cli.js");
}

/**
 * V8 optimizes a function once it has run a fixed amount of bytecode (its interrupt budget). A build lives seconds and
 * runs much of its code briefly (each stage's pass over the commands), so at V8's default most of what the optimizing
 * compiler does on its background threads is for code that is done before it pays back, a good share of a cold build's
 * CPU. At four times the default it compiles what stays hot: less CPU for the cold builds of bench/cold-build.mjs, most
 * on one core, and no longer wall time on two. The flag is read whenever a function's budget is renewed, so it holds
 * for all the code loaded after this line. Set only on the V8 of Node 20, where it was measured: another V8 tiers up
 * differently (and would print an error for a flag it has renamed).
 */
function lessEagerOptimizing() {
  if (process.versions.v8.startsWith("11.")) require("node:v8").setFlagsFromString("--interrupt-budget=270336");
}
