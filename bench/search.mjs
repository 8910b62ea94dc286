// How often search finds the right command (issue 71): the right command first (top-1), in the top 3 and the top 10,
// per description, on five query sets — the team's own (tuned beside the index), two written blind and then looked
// at (blind, dev), and two held out (written blind, only their totals ever printed). The measurement is
// test/unit/command-search.test.ts (the designer's commands of each public description, indexed as emit indexes
// them, through a JSON round trip); this prints its figures.
//
//   node bench/search.mjs
import { testOutput } from "./lib.mjs";

const { lines: output, status } = testOutput("test/unit/command-search.test.ts");
const lines = output
  .map(
    (l) =>
      /(tuned|blind|dev|held-out(-2)?) \S+( \S+)?: .*top-10 \d+ %.*|(tuned|blind|dev|held-out(-2)?) all: .*/.exec(
        l,
      )?.[0],
  )
  .filter(Boolean);
for (const set of ["tuned", "blind", "dev", "held-out", "held-out-2"])
  for (const l of lines) if (l.startsWith(`${set} `)) console.log(l);
process.exitCode = status;
