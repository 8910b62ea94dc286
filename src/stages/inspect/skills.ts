import { BUILTIN_NAMES } from "../../runtime/builtins.js";
import type { HelpCommand } from "./probes.js";
import { readFrontMatter } from "../../core/front-matter.js";
import { compareText } from "../../core/text-order.js";
import { actionOf, titleActions } from "../design/skills.js";

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
      const quoted: string[] = [];
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
        else quoted.push(path.join(" "));
      }
      const unserved = unservedAction(body, quoted, commands);
      if (unserved) problems.push(unserved);
      return { name: name || folder, description, valid: problems.length === 0, problems };
    });
}

/**
 * A Skill whose task asks to change something (its `# Title`: "Void an invoice") and none of whose commands does:
 * an agent that trusts it is sent to a read. Undoing is served by an update too (a void is often a change of state).
 */
function unservedAction(body: string, quoted: string[], commands: HelpCommand[]): string | undefined {
  const title = /^#\s+(.+)$/m.exec(body)?.[1]?.trim();
  if (!title) return undefined;
  const wanted = [...titleActions(title)].filter((a) => a !== "read");
  if (!wanted.length) return undefined;
  const byName = new Map(commands.map((c) => [c.name, c]));
  const done = new Set(
    quoted.flatMap((name) => {
      const c = byName.get(name);
      return c?.method ? [actionOf(c.method, name.split(" ").pop()!, c.description)] : [];
    }),
  );
  if (!quoted.some((n) => byName.get(n)?.method)) return undefined;
  if (wanted.some((a) => done.has(a) || (a === "undo" && done.has("update")))) return undefined;
  return `its task "${title}" asks to ${wanted.join("/")}, and none of its commands does (${quoted.join(", ")})`;
}
