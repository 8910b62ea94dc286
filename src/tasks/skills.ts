import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { InterConfig } from "../config/types.js";
import type { CommandsPlan, SkillsPlan } from "../design/types.js";
import type { DepResult, TaskSpec } from "../graph/task.js";
import { COMMANDS_FILE } from "./commands.js";
import type { DiscoverData } from "./discover.js";
import { BUILD_DIR, readDepJson, writeJson } from "./io.js";

export const SKILLS_FILE = `${BUILD_DIR}/skills.json`;

const contextInputs = (dep: DepResult) => (dep.data as DiscoverData).inputs.context;

/** Plans one Skill per task of the brief; only this task (and design) re-run when context.md changes. */
export function skillsTask(config: InterConfig): TaskSpec {
  return {
    id: "skills",
    kind: "builtin",
    description: "Plan a Skill per task in context.md, linked to the commands that serve it",
    impl: "1",
    deps: ["discover", "commands"],
    uses: { discover: contextInputs },
    config: { product: config.product.name },
    inputs: [],
    outputs: [SKILLS_FILE],
    env: [],
    async run(ctx) {
      const [{ parseBrief }, { planSkills }] = await Promise.all([import("../design/context.js"), import("../design/skills.js")]);
      const files = contextInputs(ctx.deps.discover!);
      const text = files.map((f) => readFileSync(join(ctx.root, f.path), "utf8")).join("\n\n");
      const { commands } = readDepJson<CommandsPlan>(ctx, "commands", COMMANDS_FILE);
      const warnings: string[] = [];
      if (!files.length) warnings.push("no inputs.context in the config: without a brief no Skills are planned");
      const { plan, warnings: more } = planSkills(parseBrief(text), commands, ctx.config.product.name);
      writeJson(ctx.root, SKILLS_FILE, plan satisfies SkillsPlan);
      return { data: { skills: plan.skills.length }, warnings: files.length ? more : warnings };
    },
  };
}
