import { BUILTIN_NAMES } from "../../runtime/builtins.js";
import type { HelpCommand } from "./probes.js";
import { readFrontMatter } from "../../core/front-matter.js";
import { compareText } from "../../core/text-order.js";
import { actionOf, isPlainVerb, nameWords, titleActions, titleThing, titleVerb, verbNouns } from "../design/skills.js";

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
      problems.push(...unservedTask(body, quoted, commands, binary));
      return { name: name || folder, description, valid: problems.length === 0, problems };
    });
}

/**
 * What a Skill's commands leave undone of its task (its `# Title`), each a problem an agent that trusts it would meet:
 * - the task asks to change something ("Void an invoice") and none of its commands does: the agent is sent to a read
 *   (undoing is served by an update too: a void is often a change of state);
 * - it links a removal the task does not ask for ("Share a calendar" linking `calendars delete`);
 * - the task's verb names a job a command of the CLI does on what the task names ("Merge a pull request": `repos pulls
 *   merge`), and it links none that does it.
 */
function unservedTask(body: string, quoted: string[], commands: HelpCommand[], binary: string): string[] {
  const title = /^#\s+(.+)$/m.exec(body)?.[1]?.trim();
  const byName = new Map(commands.map((c) => [c.name, c]));
  const linked = quoted.filter((n) => byName.get(n)?.method);
  if (!title || !linked.length) return [];
  const problems: string[] = [];
  const kinds = titleActions(title);
  const wanted = [...kinds].filter((a) => a !== "read");
  const actionOfName = (name: string) => {
    const c = byName.get(name)!;
    return actionOf(c.method!, lastPart(name), c.description);
  };
  const done = new Set(linked.map(actionOfName));
  if (wanted.length && !wanted.some((a) => done.has(a) || (a === "undo" && done.has("update"))))
    problems.push(
      `its task "${title}" asks to ${wanted.join("/")}, and none of its commands does (${quoted.join(", ")})`,
    );
  const verb = titleVerb(title);
  const says = (name: string) => !!verb && nameWords(lastPart(name)).includes(verb);
  for (const name of linked)
    if (actionOfName(name) === "undo" && !kinds.has("undo") && !says(name))
      problems.push(`it links \`${binary} ${name}\`, which removes, and its task "${title}" removes nothing`);
  // A read that says the verb (`pulls merge-check`) does not do it; a command whose name says it anywhere does
  // (`duties schedules create` schedules).
  const does = (name: string) => says(name) && actionOfName(name) !== "read";
  const doesLinked = (name: string) => !!verb && nameWords(name).includes(verb) && actionOfName(name) !== "read";
  if (verb && !isPlainVerb(verb) && !linked.some(doesLinked)) {
    const named = new Set(nameWords(title));
    const doers = commands
      .filter((c) => c.method)
      .map((c) => c.name)
      .filter((n) => does(n) && nameWords(n.split(" ").slice(0, -1).join(" ")).some((w) => named.has(w)));
    if (doers.length)
      problems.push(
        `its task "${title}" says ${verb}, which ${doers
          .slice(0, 3)
          .map((n) => `\`${binary} ${n}\``)
          .join(", ")} ${doers.length > 1 ? "do" : "does"}, and it links none of them`,
      );
  }
  problems.push(...otherThing(title, linked, commands, binary, wanted.length ? wanted : ["read"], actionOfName));
  return problems;
}

/**
 * What a task acts on that its Skill's first command does not: "Give a group write permission" linking `groups
 * create`. Where commands of the kind the task asks for are named by the thing (or a word of the same meaning), and
 * the first linked command names it neither in its name nor in its summary, the Skill sends the agent elsewhere.
 */
function otherThing(
  title: string,
  linked: string[],
  commands: HelpCommand[],
  binary: string,
  kinds: string[],
  actionOfName: (name: string) => string,
): string[] {
  const thing = titleThing(title);
  if (!thing) return [];
  const words = new Set([thing.word, ...thing.related]);
  const names = (c: HelpCommand) => nameWords(c.name).some((w) => words.has(w));
  const visible = commands.filter((c) => c.method);
  const first = visible.find((c) => c.name === linked[0])!;
  // A command named by the task's verb does it whatever it acts on ("Deploy a build": `deployment start`).
  const verb = titleVerb(title);
  const said = [...nameWords(first.name), ...nameWords(first.description ?? "")];
  if (said.some((w) => words.has(w)) || (verb && verbNouns(verb).some((n) => said.includes(n)))) return [];
  const others = visible.filter((c) => names(c) && kinds.includes(actionOfName(c.name)));
  // No command is named by it: the brief says it otherwise than the API ("prospect" for SalesLoft's people), so
  // linking went by its other words.
  if (!visible.some(names))
    return [
      `its task "${title}" acts on "${thing.word}", which no command of this CLI is named by, and \`${binary} ${first.name}\` does not say it: check that it does the task, or name the thing as the commands do`,
    ];
  if (!others.length) return [];
  return [
    `its task "${title}" acts on "${thing.word}", which \`${binary} ${first.name}\` does not name, and ${others
      .slice(0, 3)
      .map((c) => `\`${binary} ${c.name}\``)
      .join(", ")} ${others.length > 1 ? "do" : "does"}`,
  ];
}

const lastPart = (name: string) => name.split(" ").pop()!;
