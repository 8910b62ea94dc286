// How often search finds the right command (issue 71): the right command first (top-1), in the top 3 and the top 10,
// per description, on four query sets — the team's own (tuned beside the index), two written blind and then looked
// at (blind, dev), and one held out (written blind, only its totals ever printed). The measurement is
// test/unit/command-search.test.ts (the designer's commands of each public description, indexed as emit indexes
// them, through a JSON round trip); this prints its figures.
//
//   node bench/search.mjs
import { spawnSync } from "node:child_process";
import { resolve } from "node:path";

const repo = resolve(import.meta.dirname, "..");
const run = spawnSync(
  process.execPath,
  [resolve(repo, "node_modules/vitest/vitest.mjs"), "run", "test/unit/command-search.test.ts", "--reporter=dot"],
  {
    cwd: repo,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0" },
  },
);
const lines = `${run.stdout}\n${run.stderr}`
  .split("\n")
  .map((l) => /(tuned|blind|dev|held-out) \S+( \S+)?: .*top-10 \d+ %.*|(tuned|blind|dev|held-out) all: .*/.exec(l)?.[0])
  .filter(Boolean);
for (const set of ["tuned", "blind", "dev", "held-out"])
  for (const l of lines) if (l.startsWith(`${set} `)) console.log(l);
process.exitCode = run.status ?? 1;
