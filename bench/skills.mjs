// How often a Skill links the command that does its task (issue 71): briefs written blind for public descriptions
// nobody tuned linking on, each task with the commands that perform its action (test/fixtures/skill-linking-sets.json);
// per API for the sets looked at, totals only for the held-out one. And how often `search`, asked the first sentence of
// a task's situation, ranks its command first, in the top 3 and the top 10, alone and with the brief's tasks. The measurement is
// test/unit/skill-linking-sets.test.ts (the designer's commands of each description, linked as design links them);
// this prints its figures.
//
//   node bench/skills.mjs
import { testOutput } from "./lib.mjs";

const { lines, status } = testOutput("test/unit/skill-linking-sets.test.ts");
for (const line of lines)
  if (/^(looked-at-\d|held-out) .*(tasks, linked|not linked|asked of search)|^\s+not linked: /.test(line))
    console.log(line);
process.exitCode = status;
