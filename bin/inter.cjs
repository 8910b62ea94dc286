#!/usr/bin/env node
"use strict";
// A warm no-op `inter build` is answered by a small module from its saved record (src/cli/noop-fast-path.ts);
// everything else loads the CLI. This entry is CommonJS: an ES module entry starts Node's module loader first, a
// cost the size of the no-op's whole answer (~7 % of it, measured in bench/noop-build.mjs).
const { answerNoop } = require("../lib/noop.cjs");

if (!answerNoop(process.argv.slice(2))) import("../lib/cli.js");
