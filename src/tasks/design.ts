import type { InterConfig } from "../config/types.js";
import type { CommandsPlan, SkillsPlan } from "../design/types.js";
import type { TaskSpec } from "../graph/task.js";
import { COMMANDS_FILE } from "./commands.js";
import { readDepJson, writeJson } from "./io.js";
import { SKILLS_FILE } from "./skills.js";

export const CAPABILITIES_SCHEMA_VERSION = "1.0.0";

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
      const commands = readDepJson<CommandsPlan>(ctx, "commands", COMMANDS_FILE);
      const skills = readDepJson<SkillsPlan>(ctx, "skills", SKILLS_FILE);
      const capabilities = {
        schemaVersion: CAPABILITIES_SCHEMA_VERSION,
        product: { ...commands.product, description: skills.product.description },
        source: commands.source,
        baseUrl: commands.baseUrl,
        auth: commands.auth,
        rules: skills.rules,
        commands: commands.commands,
        skills: skills.skills,
        naming: commands.naming,
      };
      writeJson(ctx.root, file, capabilities);
      return { data: { file, commands: commands.commands.length, skills: skills.skills.length } };
    },
  };
}
