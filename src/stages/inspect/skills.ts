import { BUILTIN_NAMES } from "../../runtime/builtins.js";
import type { HelpCommand } from "./probes.js";
import { readFrontMatter } from "../../core/front-matter.js";
import { compareText } from "../../core/text-order.js";

export interface SkillCheck {
  name: string;
  description: string;
  valid: boolean;
  problems: string[];
}

/** The keys the Agent Skills format allows in SKILL.md frontmatter; anything else is not portable. */
const ALLOWED_KEYS = new Set(["name", "description", "license", "compatibility", "metadata", "allowed-tools"]);
const NAME = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/**
 * Validates each bundled Skill the way a portable validator does, plus: every command it quotes exists. Generated CLIs
 * take flags only, so the words before the first flag must name a command; with `positionals` (a CLI such as inter
 * itself) the longest command those words start with counts.
 */
export async function validateSkills(
  skillFiles: Record<string, string>,
  binary: string,
  commands: HelpCommand[],
  options: { positionals?: boolean } = {},
): Promise<SkillCheck[]> {
  const known = new Set([...commands.map((c) => c.name), ...BUILTIN_NAMES]);
  return Object.entries(skillFiles)
    .sort(([a], [b]) => compareText(a, b))
    .map(([folder, text]) => {
      const problems: string[] = [];
      const read = readFrontMatter(text);
      if (read.kind === "none") problems.push("SKILL.md does not start with --- frontmatter ---");
      if (read.kind === "invalid") problems.push(`the frontmatter is ${read.message}`);
      const front = read.kind === "mapping" ? read.data : {};
      for (const key of Object.keys(front))
        if (!ALLOWED_KEYS.has(key)) problems.push(`frontmatter key "${key}" is not a standard Skill key`);
      const name = typeof front.name === "string" ? front.name : "";
      const description = typeof front.description === "string" ? front.description : "";
      if (!name) problems.push("frontmatter has no name");
      else {
        if (name !== folder) problems.push(`name "${name}" differs from its folder "${folder}"`);
        if (!NAME.test(name)) problems.push(`name "${name}" is not lowercase letters, digits and single hyphens`);
        if (name.length > 64) problems.push(`name is ${name.length} characters (at most 64)`);
      }
      if (!description.trim()) problems.push("frontmatter has no description");
      if (description.length > 1024) problems.push(`description is ${description.length} characters (at most 1024)`);
      if (/[<>]/.test(description)) problems.push("description contains angle brackets");
      const body = read.kind === "mapping" ? read.body : "";
      for (const span of body.matchAll(/`([^`\n]+)`/g)) {
        const words = span[1]!.trim().split(/\s+/);
        if (words[0] !== binary) continue;
        const end = words.findIndex((w, i) => i > 0 && (w.startsWith("-") || w.startsWith("<")));
        const path = words.slice(1, end < 0 ? undefined : end);
        if (!path.length || path[0] === "skills") continue;
        const named = options.positionals
          ? path.some((_, i) => known.has(path.slice(0, i + 1).join(" ")))
          : known.has(path.join(" "));
        if (!named) problems.push(`quotes \`${binary} ${path.join(" ")}\`, which is not a command of this CLI`);
      }
      return { name: name || folder, description, valid: problems.length === 0, problems };
    });
}
