// How often a Skill links the command that does its task (issue 71): briefs written blind for public descriptions
// nobody tuned linking on, each task with the commands that perform its action (test/fixtures/skill-linking-sets.json);
// per API for the sets looked at, totals only for the held-out one. The measurement is
// test/unit/skill-linking-sets.test.ts (the designer's commands of each description, linked as design links them);
// this prints its figures.
//
//   node bench/skills.mjs
import { spawnSync } from "node:child_process";
import { resolve } from "node:path";

const repo = resolve(import.meta.dirname, "..");
const run = spawnSync(
  process.execPath,
  [resolve(repo, "node_modules/vitest/vitest.mjs"), "run", "test/unit/skill-linking-sets.test.ts", "--reporter=dot"],
  {
    cwd: repo,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0" },
  },
);
for (const line of `${run.stdout}\n${run.stderr}`.split("\n"))
  if (/^(looked-at-\d|held-out) .*(tasks, linked|not linked)|^\s+not linked: /.test(line)) console.log(line);
process.exitCode = run.status ?? 1;
