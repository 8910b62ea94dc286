import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import type { InterConfig } from "../config/types.js";
import { InterError } from "../core/errors.js";
import type { CommandsPlan, SkillsPlan } from "../stages/design/types.js";
import type { DepResult, TaskSpec } from "../engine/graph/task.js";
import { COMMANDS_FILE } from "./commands.js";
import type { DiscoverData } from "./discover.js";
import { BUILD_DIR } from "../config/project-paths.js";
import { readDepJson, writeBuildJson } from "./io.js";
import { count } from "../core/plural.js";

export const SKILLS_FILE = `${BUILD_DIR}/skills.json`;

const contextInputs = (dep: DepResult) => (dep.data as DiscoverData).inputs.context;

/** A brief is prose for people and agents; a megabyte is hundreds of pages. */
const MAX_BRIEF_BYTES = 1024 * 1024;
/** Each Skill is a folder in the tarball and a line in every agent's Skill index; past this an index stops helping. */
const MAX_SKILLS = 1000;

/**
 * A brief that still holds `inter init`'s TODO placeholders is refused (CONTEXT_INCOMPLETE, the blocker `inter status`
 * reports): a candidate built from it would ship the placeholders as rules and Skills. Nothing else is touched: the
 * tasks after this one are skipped, so the last candidate, its receipt and the cache stay as they were.
 */
function refusePlaceholders(
  root: string,
  files: Array<{ path: string; text: string }>,
  placeholderLines: (text: string) => number[],
): void {
  const found = files.map((f) => ({ file: f.path, lines: placeholderLines(f.text) })).filter((f) => f.lines.length);
  if (!found.length) return;
  const where = found.map((f) => `${f.file} (line${f.lines.length > 1 ? "s" : ""} ${f.lines.join(", ")})`).join("; ");
  const names = found.map((f) => f.file).join(", ");
  throw new InterError(
    "CONTEXT_INCOMPLETE",
    `The brief is not written yet: inter init's TODO placeholders are still in ${where}.`,
    `Replace every <!-- TODO … --> in ${names} with your product's brief (docs/context.md; the intermesh-context Skill helps), then run inter build again.`,
    {
      file: found[0]!.file,
      lines: found[0]!.lines,
      files: found,
      next: `$EDITOR ${names}  # replace every TODO (Skill intermesh-context); a person confirms the rules`,
      next_actions: [
        {
          command: "inter",
          args: ["--json", "build"],
          cwd: root,
          after: `every <!-- TODO … --> in ${names} is replaced`,
        },
      ],
    },
  );
}

function readBrief(root: string, files: { path: string }[]): Array<{ path: string; text: string }> {
  const sizes = files.map((f) => statSync(join(root, f.path)).size);
  const bytes = sizes.reduce((a, b) => a + b, 0);
  if (bytes > MAX_BRIEF_BYTES) {
    const names = files.map((f) => f.path).join(", ");
    throw new InterError(
      "INPUT_TOO_LARGE",
      `${names}: the brief is ${bytes} bytes, over the ${MAX_BRIEF_BYTES}-byte limit`,
      "Keep context.md to what an agent needs: the product, its rules and one `###` section per task users do.",
      { file: names, bytes, limit: MAX_BRIEF_BYTES },
    );
  }
  return files.map((f) => ({ path: f.path, text: readFileSync(join(root, f.path), "utf8") }));
}

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
      const [{ parseBrief, placeholderLines }, { planSkills }] = await Promise.all([
        import("../stages/design/context.js"),
        import("../stages/design/skills.js"),
      ]);
      const files = contextInputs(ctx.deps.discover!);
      const briefs = readBrief(ctx.root, files);
      refusePlaceholders(ctx.root, briefs, placeholderLines);
      const text = briefs.map((b) => b.text).join("\n\n");
      const { commands, groups } = readDepJson<CommandsPlan>(ctx, "commands", COMMANDS_FILE);
      const warnings: string[] = [];
      if (!files.length) warnings.push("no inputs.context in the config: without a brief no Skills are planned");
      const brief = parseBrief(text);
      if (brief.tasks.length > MAX_SKILLS) {
        const names = files.map((f) => f.path).join(", ");
        throw new InterError(
          "INPUT_TOO_LARGE",
          `${names}: the brief names ${count(brief.tasks.length, "task")}; inter plans at most ${count(MAX_SKILLS, "Skill")}`,
          "Group related jobs into one task (a Skill can use several commands), or split the product into several CLIs.",
          { file: names, briefTasks: brief.tasks.length, limit: MAX_SKILLS },
        );
      }
      const { plan, warnings: more } = planSkills(brief, commands, (ctx.slice as { product: string }).product, groups);
      writeBuildJson(ctx.root, SKILLS_FILE, plan satisfies SkillsPlan);
      return { data: { skills: plan.skills.length }, warnings: files.length ? more : warnings };
    },
  };
}
