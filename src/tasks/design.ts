import type { InterConfig } from "../config/types.js";
import type { CommandsPlan, SkillsPlan } from "../design/types.js";
import type { TaskSpec } from "../graph/task.js";
import { COMMANDS_FILE } from "./commands.js";
import { readDepJson, writeJson } from "./io.js";
import { SKILLS_FILE } from "./skills.js";

export function outDir(config: InterConfig): string {
  return (config.targets?.cli?.outDir ?? "dist").replace(/\/+$/, "");
}

/** capabilities.json: the complete, deterministic plan of the CLI (schemas/capabilities.schema.json). */
export function designTask(config: InterConfig): TaskSpec {
  const file = `${outDir(config)}/capabilities.json`;
  return {
    id: "design",
    kind: "builtin",
    description: `Write ${file}: the complete plan of the CLI`,
    impl: "1",
    deps: ["commands", "skills"],
    config: { outDir: outDir(config) },
    inputs: [],
    outputs: [file],
    env: [],
    async run(ctx) {
      const { assembleCapabilities } = await import("../design/capabilities.js");
      const commands = readDepJson<CommandsPlan>(ctx, "commands", COMMANDS_FILE);
      const skills = readDepJson<SkillsPlan>(ctx, "skills", SKILLS_FILE);
      writeJson(ctx.root, file, assembleCapabilities(commands, skills));
      return { data: { file, commands: commands.commands.length, skills: skills.skills.length } };
    },
  };
}
