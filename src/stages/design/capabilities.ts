import { plainTexts } from "./descriptions.js";
import type { CommandsPlan, SkillsPlan } from "./types.js";

const CAPABILITIES_SCHEMA_VERSION = "1.0.0";

/**
 * capabilities.json (schemas/capabilities.schema.json): the command plan and the skills plan, joined, with every
 * description an agent reads as plain text (stages/design/descriptions.ts).
 */
export function assembleCapabilities(commands: CommandsPlan, skills: SkillsPlan) {
  return plainTexts({
    schemaVersion: CAPABILITIES_SCHEMA_VERSION,
    product: { ...commands.product, description: skills.product.description },
    source: commands.source,
    baseUrl: commands.baseUrl,
    auth: commands.auth,
    rules: skills.rules,
    groups: commands.groups,
    commands: commands.commands,
    skills: skills.skills,
    naming: commands.naming,
  });
}

export type Capabilities = ReturnType<typeof assembleCapabilities>;
