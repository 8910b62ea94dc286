import { canonicalJson, sha256 } from "../../core/hash.js";
import type { Operation, OperationModel } from "../openapi/model.js";
import { SECRET_PATTERNS } from "../../runtime/guard.js";
import { RESERVED_FLAGS, RESERVED_RESOURCES } from "./commands.js";
import type { CommandsPlan, SkillPlan, SkillsPlan } from "./types.js";
import { isNoise } from "./verbs.js";
import { groupText } from "./groups.js";
import { count } from "../../core/words.js";

/**
 * The design overlay (schemas/overlay.schema.json, docs/overlay.md): names, descriptions and Skill text a model
 * suggested and people reviewed. Each entry is keyed by the sha256 of what was asked; the build applies an entry only
 * while its key matches the current inputs, and only after it passes the same checks the rules' output meets.
 */

export const OVERLAY_FORMAT = "intermesh-overlay/1";
/** Bumped whenever the prompts change what they ask: every entry is then stale and asked again. */
export const PROMPT_VERSION = "design-1";

export interface OverlayOrigin {
  model: string;
  promptVersion: string;
}
export interface OverlayCommand {
  name?: string;
  description?: string;
  flags?: Record<string, string>;
}
export interface OverlayGroup {
  key: string;
  origin: OverlayOrigin;
  /** What the group is for, replacing its tag's description (help and the package's command files show it). */
  description?: string;
  commands: Record<string, OverlayCommand>;
}
export interface OverlaySkill {
  key: string;
  origin: OverlayOrigin;
  description?: string;
  situation?: string;
  avoid?: string;
  steps?: string[];
}
export interface Overlay {
  format: typeof OVERLAY_FORMAT;
  groups: Record<string, OverlayGroup>;
  skills: Record<string, OverlaySkill>;
}

export const emptyOverlay = (): Overlay => ({ format: OVERLAY_FORMAT, groups: {}, skills: {} });

const trim = (text: string | undefined, max: number) => (text && text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** What the model is shown of one operation: enough to name it, nothing it could not read in the document. */
export function operationFragment(op: Operation, name: string) {
  return {
    id: op.id,
    method: op.method.toUpperCase(),
    path: op.path,
    ...(op.summary ? { summary: trim(op.summary, 200) } : {}),
    ...(op.description ? { description: trim(op.description.replace(/\s+/g, " "), 400) } : {}),
    rulesName: name,
    parameters: op.parameters.map((p) => ({ name: p.name, in: p.in, type: p.type, required: p.required, ...(p.description ? { description: trim(p.description.replace(/\s+/g, " "), 160) } : {}) })),
    ...(op.body ? { body: op.body.fields.map((f) => ({ name: f.name, type: f.type, required: f.required })) } : {}),
    responses: op.responses.map((r) => `${r.status} ${r.shape}`),
  };
}

/** The brief as every group request sees it: the product and the titles of the tasks users do. */
function briefSlice(skills: SkillsPlan) {
  return { product: skills.product.name, description: trim(skills.product.description, 600) ?? "", tasks: skills.skills.map((s) => s.title) };
}

export interface GroupQuestion {
  group: string;
  key: string;
  /** What the prompt shows: the group's operations with their rules' names and flags. */
  operations: Array<ReturnType<typeof operationFragment> & { flags: string[] }>;
}

/** One question per command group of the rules' design, each keyed by everything it asks about. */
export function groupQuestions(model: OperationModel, commands: CommandsPlan, skills: SkillsPlan, modelName: string): GroupQuestion[] {
  const byId = new Map(model.operations.map((op) => [op.id, op]));
  const groups = new Map<string, GroupQuestion["operations"]>();
  for (const c of commands.commands) {
    const op = byId.get(c.operation.id);
    if (!op || c.hidden) continue;
    const group = c.path[0]!;
    groups.set(group, [...(groups.get(group) ?? []), { ...operationFragment(op, c.name), flags: c.flags.map((f) => f.flag) }]);
  }
  const brief = briefSlice(skills);
  return [...groups].sort(([a], [b]) => a.localeCompare(b)).map(([group, operations]) => ({ group, operations, key: sha256(canonicalJson({ kind: "group", promptVersion: PROMPT_VERSION, model: modelName, brief, group, operations })) }));
}

export interface SkillQuestion {
  skill: string;
  key: string;
  task: { title: string; situation: string; outcome: string; rules: string[] };
  /** The commands the Skill links, by their (overlaid) names, with what they do. */
  commands: Array<{ name: string; description: string }>;
}

export function skillQuestions(skills: SkillsPlan, commands: CommandsPlan, modelName: string): SkillQuestion[] {
  const described = new Map(commands.commands.map((c) => [c.name, c.description]));
  return skills.skills.map((s) => {
    const task = { title: s.title, situation: trim(s.situation, 2000) ?? "", outcome: trim(s.outcome, 1000) ?? "", rules: s.rules };
    const linked = s.commands.map((name) => ({ name, description: described.get(name) ?? "" }));
    return { skill: s.name, task, commands: linked, key: sha256(canonicalJson({ kind: "skill", promptVersion: PROMPT_VERSION, model: modelName, product: skills.product.name, task, commands: linked })) };
  });
}

export interface OverlayReport {
  applied: string[];
  rejected: Array<{ entry: string; reason: string }>;
  stale: string[];
}

const WORD = /^[a-z0-9]+(-[a-z0-9]+)*$/;
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f]/;

/** Why a text may not ship, or undefined: control characters, markup, a credential-looking value, too long. */
function unfitText(text: string, max: number, secrets: string[] = []): string | undefined {
  if (!text.trim()) return "it is empty";
  if (text.length > max) return `it is ${text.length} characters, over ${max}`;
  if (CONTROL.test(text)) return "it holds control characters";
  if (/<\/?[a-z][^>]*>/i.test(text)) return "it holds HTML markup";
  for (const [pattern, what] of SECRET_PATTERNS) if (pattern.test(text)) return `it holds what looks like ${what}`;
  if (text.split(/\s+/).some((w) => /^[A-Za-z0-9+/_=.-]{40,}$/.test(w) && /[A-Za-z]/.test(w) && /\d/.test(w))) return "it holds a long opaque string (a key or token?)";
  if (secrets.some((s) => s.length >= 6 && text.includes(s))) return "it holds a credential value";
  return undefined;
}

/** Why a name may not be used, or undefined. `taken` holds the names other commands already have. */
function unfitName(name: string, taken: Set<string>): string | undefined {
  const words = name.trim().split(/\s+/);
  if (words.length < 2 || words.length > 3) return `"${name}" has ${words.length} words; a command name has two or three`;
  if (!words.every((w) => WORD.test(w))) return `"${name}" is not kebab-case words (a-z, 0-9, single hyphens)`;
  if (name.length > 48) return `"${name}" is ${name.length} characters, over 48`;
  if (RESERVED_RESOURCES.has(words[0]!)) return `"${words[0]}" is a built-in command of every generated CLI`;
  if (words.flatMap((w) => w.split("-")).some((t) => isNoise(t))) return `"${name}" holds a stop word, version or HTTP method word`;
  if (taken.has(name)) return `"${name}" is another command's name`;
  // A name may not sit under another command's name, nor hold one under it (`a b` beside `a b c`).
  for (const other of taken) if (other.startsWith(`${name} `) || name.startsWith(`${other} `)) return `"${name}" and "${other}" would shadow each other`;
  return undefined;
}

/**
 * The rules' plans with the overlay applied: each current, valid entry replaces the rules' name, description, flag
 * descriptions or Skill text; everything else stays as the rules made it. Renames follow into the Skills' links.
 */
export function applyOverlay(readModel: () => OperationModel, commands: CommandsPlan, skills: SkillsPlan, overlay: Overlay, secrets: string[] = []): { commands: CommandsPlan; skills: SkillsPlan; report: OverlayReport } {
  const report: OverlayReport = { applied: [], rejected: [], stale: [] };
  // An empty overlay (most builds, and every watch cycle without one) changes nothing: no copy, no model read.
  if (!Object.keys(overlay.groups).length && !Object.keys(overlay.skills).length) return { commands, skills, report };
  const out: CommandsPlan = structuredClone(commands);
  const outSkills: SkillsPlan = structuredClone(skills);
  const renamed = new Map<string, string>();
  const groupEntries = Object.entries(overlay.groups);
  if (groupEntries.length) {
    const model = readModel();
    const current = new Map<string, GroupQuestion>();
    // Keys are computed with the model each entry names: an entry from another model is as current as its inputs.
    for (const [group, entry] of groupEntries) {
      const question = groupQuestions(model, commands, skills, entry.origin.model).find((q) => q.group === group);
      if (!question) report.stale.push(`groups.${group}: no such group in the rules' design`);
      else if (question.key !== entry.key) report.stale.push(`groups.${group}: the operations or the brief changed since it was suggested`);
      else current.set(group, question);
    }
    const names = new Set(out.commands.map((c) => c.name));
    for (const [group, entry] of groupEntries) {
      if (!current.has(group)) continue;
      if (entry.description !== undefined) {
        const at = `groups.${group}.description`;
        const why = unfitText(entry.description, 300, secrets) ?? (groupText(entry.description) ? undefined : "only a link: say what the group is for");
        if (why) report.rejected.push({ entry: at, reason: why });
        else {
          out.groups = out.groups.map((g) => (g.name === group ? { ...g, description: entry.description!.trim() } : g));
          report.applied.push(at);
        }
      }
      for (const [operation, suggestion] of Object.entries(entry.commands)) {
        const at = `groups.${group}.commands.${operation}`;
        const command = out.commands.find((c) => c.operation.id === operation && c.path[0] === group);
        if (!command) {
          report.rejected.push({ entry: at, reason: `no command of group "${group}" has operation ${operation}` });
          continue;
        }
        const problems: string[] = [];
        let name = command.name;
        if (suggestion.name !== undefined && suggestion.name.trim() !== command.name) {
          names.delete(command.name);
          const why = unfitName(suggestion.name.trim(), names);
          names.add(command.name);
          if (why) problems.push(`name: ${why}`);
          else name = suggestion.name.trim();
        }
        let description = command.description;
        if (suggestion.description !== undefined) {
          const why = unfitText(suggestion.description, 300, secrets);
          if (why) problems.push(`description: ${why}`);
          else description = suggestion.description.trim();
        }
        const flagDescriptions = new Map<string, string>();
        for (const [flag, text] of Object.entries(suggestion.flags ?? {})) {
          const bare = flag.replace(/^--/, "");
          if (!command.flags.some((f) => f.flag === bare)) problems.push(`flags.${flag}: the command has no such flag`);
          else if (RESERVED_FLAGS.has(bare)) problems.push(`flags.${flag}: a reserved flag`);
          else {
            const why = unfitText(text, 300, secrets);
            if (why) problems.push(`flags.${flag}: ${why}`);
            else flagDescriptions.set(bare, text.trim());
          }
        }
        if (problems.length) {
          report.rejected.push({ entry: at, reason: problems.join("; ") });
          continue;
        }
        if (name !== command.name) {
          names.delete(command.name);
          names.add(name);
          renamed.set(command.name, name);
          command.path = name.split(/\s+/);
          command.nameSource = { resource: { word: command.path[0]!, from: "overlay", text: at }, action: { word: command.path[command.path.length - 1]!, from: "overlay", text: at } };
          command.name = name;
        }
        if (description !== command.description) {
          command.description = description;
        }
        for (const f of command.flags) if (flagDescriptions.has(f.flag)) f.description = flagDescriptions.get(f.flag)!;
        report.applied.push(at);
      }
    }
    if (renamed.size) {
      out.commands.sort((a, b) => a.name.localeCompare(b.name));
      for (const s of outSkills.skills) {
        s.commands = s.commands.map((n) => renamed.get(n) ?? n);
        s.links = s.links.map((l) => ({ ...l, command: renamed.get(l.command) ?? l.command }));
      }
    }
  }
  const commandNames = new Set(out.commands.map((c) => c.name));
  const questions = new Map(skillQuestions(skills, commands, "").map((q) => [q.skill, q]));
  for (const [name, entry] of Object.entries(overlay.skills)) {
    const at = `skills.${name}`;
    const skill = outSkills.skills.find((s) => s.name === name);
    if (!skill || !questions.has(name)) {
      report.stale.push(`${at}: no such Skill in the rules' design`);
      continue;
    }
    if (skillQuestions(skills, commands, entry.origin.model).find((q) => q.skill === name)!.key !== entry.key) {
      report.stale.push(`${at}: the task or its commands changed since it was suggested`);
      continue;
    }
    const why = unfitSkill(entry, commandNames, commands.product.binary, secrets);
    if (why) {
      report.rejected.push({ entry: at, reason: why });
      continue;
    }
    applySkill(skill, entry);
    report.applied.push(at);
  }
  return { commands: out, skills: outSkills, report };
}

function applySkill(skill: SkillPlan, entry: OverlaySkill): void {
  if (entry.description) skill.description = entry.description.trim();
  if (entry.situation) skill.situation = entry.situation.trim();
  if (entry.avoid) skill.avoid = entry.avoid.trim();
  if (entry.steps?.length) skill.steps = entry.steps.map((s) => s.trim());
}

/** Why Skill text may not ship: unfit text, or a step naming a command the CLI does not have. */
function unfitSkill(entry: OverlaySkill, commands: Set<string>, binary: string, secrets: string[]): string | undefined {
  const texts: Array<[string, string | undefined, number]> = [
    ["description", entry.description, 1024],
    ["situation", entry.situation, 2000],
    ["avoid", entry.avoid, 1000],
    ...(entry.steps ?? []).map((s, i) => [`steps.${i}`, s, 500] as [string, string, number]),
  ];
  if ((entry.steps?.length ?? 0) > 12) return `steps: ${count(entry.steps!.length, "step")}, over 12`;
  for (const [field, text, max] of texts) {
    if (text === undefined) continue;
    const why = unfitText(text, max, secrets);
    if (why) return `${field}: ${why}`;
  }
  // Every `<binary> <words>` a step names must be a command of this CLI (or a built-in one).
  const mention = new RegExp(`(?:^|[\\s\`'"(])${binary.replace(/[.*+?^${}()|[\]\\-]/g, "\\$&")}((?:\\s+[a-z0-9][a-z0-9-]*){1,3})`, "g");
  for (const [field, text] of texts) {
    for (const match of (text ?? "").matchAll(mention)) {
      const words = match[1]!.trim().split(/\s+/);
      if (RESERVED_RESOURCES.has(words[0]!)) continue;
      const known = [3, 2].some((n) => words.length >= n && commands.has(words.slice(0, n).join(" ")));
      if (!known) return `${field}: names \`${binary} ${words.join(" ")}\`, which is not a command of this CLI`;
    }
  }
  return undefined;
}
