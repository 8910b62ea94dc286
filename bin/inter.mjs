#!/usr/bin/env node
// A warm no-op `inter build` is answered by a small module from its saved record (src/cli/noop-fast-path.ts);
// everything else loads the CLI.
import { answerNoop } from "../lib/noop.js";

if (!answerNoop(process.argv.slice(2))) await import("../lib/cli.js");
