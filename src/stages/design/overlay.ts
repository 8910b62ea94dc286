import { canonicalJson, sha256 } from "../../core/hash.js";
import type { Operation, OperationModel } from "../openapi/model.js";
import { SECRET_PATTERNS } from "../../runtime/guard.js";
import { RESERVED_FLAGS, RESERVED_RESOURCES } from "./commands.js";
import type { CommandSpec, CommandsPlan, SkillPlan, SkillsPlan } from "./types.js";
import { isNoise } from "./verbs.js";
import { groupText } from "./groups.js";
import { count } from "../../core/plural.js";
import { compareText } from "../../core/text-order.js";

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
  /** Requests a user might make for the command, in their own words: search indexes them (doc2query). */
  phrasings?: string[];
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

const trim = (text: string | undefined, max: number) =>
  text && text.length > max ? `${text.slice(0, max - 1)}…` : text;

/** What the model is shown of one operation: enough to name it, nothing it could not read in the document. */
export function operationFragment(op: Operation, name: string) {
  return {
    id: op.id,
    method: op.method.toUpperCase(),
    path: op.path,
    ...(op.summary ? { summary: trim(op.summary, 200) } : {}),
    ...(op.description ? { description: trim(op.description.replace(/\s+/g, " "), 400) } : {}),
    rulesName: name,
    parameters: op.parameters.map((p) => ({
      name: p.name,
      in: p.in,
      type: p.type,
      required: p.required,
      ...(p.description ? { description: trim(p.description.replace(/\s+/g, " "), 160) } : {}),
    })),
    ...(op.body ? { body: op.body.fields.map((f) => ({ name: f.name, type: f.type, required: f.required })) } : {}),
    responses: op.responses.map((r) => `${r.status} ${r.shape}`),
  };
}

/** The brief as every group request sees it: the product and the titles of the tasks users do. */
function briefSlice(skills: SkillsPlan) {
  return {
    product: skills.product.name,
    description: trim(skills.product.description, 600) ?? "",
    tasks: skills.skills.map((s) => s.title),
  };
}

export interface GroupQuestion {
  group: string;
  key: string;
  /** What the prompt shows: the group's operations with their rules' names and flags. */
  operations: Array<ReturnType<typeof operationFragment> & { flags: string[] }>;
}

/** One question per command group of the rules' design, each keyed by everything it asks about. */
export function groupQuestions(
  model: OperationModel,
  commands: CommandsPlan,
  skills: SkillsPlan,
  modelName: string,
): GroupQuestion[] {
  const byId = new Map(model.operations.map((op) => [op.id, op]));
  const groups = new Map<string, GroupQuestion["operations"]>();
  for (const c of commands.commands) {
    const op = byId.get(c.operation.id);
    if (!op || c.hidden) continue;
    const group = c.path[0]!;
    groups.set(group, [
      ...(groups.get(group) ?? []),
      { ...operationFragment(op, c.name), flags: c.flags.map((f) => f.flag) },
    ]);
  }
  const brief = briefSlice(skills);
  return [...groups]
    .sort(([a], [b]) => compareText(a, b))
    .map(([group, operations]) => ({
      group,
      operations,
      key: sha256(
        canonicalJson({ kind: "group", promptVersion: PROMPT_VERSION, model: modelName, brief, group, operations }),
      ),
    }));
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
    const task = {
      title: s.title,
      situation: trim(s.situation, 2000) ?? "",
      outcome: trim(s.outcome, 1000) ?? "",
      rules: s.rules,
    };
    const linked = s.commands.map((name) => ({ name, description: described.get(name) ?? "" }));
    return {
      skill: s.name,
      task,
      commands: linked,
      key: sha256(
        canonicalJson({
          kind: "skill",
          promptVersion: PROMPT_VERSION,
          model: modelName,
          product: skills.product.name,
          task,
          commands: linked,
        }),
      ),
    };
  });
}

/** One field of the overlay the build did not apply: `entry` is its dotted name, `path` its keys in the file. */
export interface OverlayRejection {
  entry: string;
  path: string[];
  reason: string;
}

export interface OverlayReport {
  applied: string[];
  rejected: OverlayRejection[];
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
  if (text.split(/\s+/).some((w) => /^[A-Za-z0-9+/_=.-]{40,}$/.test(w) && /[A-Za-z]/.test(w) && /\d/.test(w)))
    return "it holds a long opaque string (a key or token?)";
  if (secrets.some((s) => s.length >= 6 && text.includes(s))) return "it holds a credential value";
  return undefined;
}

/** Why a name may not be used, or undefined. `taken` holds the names other commands already have. */
function unfitName(name: string, taken: Set<string>): string | undefined {
  const words = name.trim().split(/\s+/);
  if (words.length < 2 || words.length > 3)
    return `"${name}" has ${words.length} words; a command name has two or three`;
  if (!words.every((w) => WORD.test(w))) return `"${name}" is not kebab-case words (a-z, 0-9, single hyphens)`;
  if (name.length > 48) return `"${name}" is ${name.length} characters, over 48`;
  if (RESERVED_RESOURCES.has(words[0]!)) return `"${words[0]}" is a built-in command of every generated CLI`;
  if (words.flatMap((w) => w.split("-")).some((t) => isNoise(t)))
    return `"${name}" holds a stop word, version or HTTP method word`;
  if (taken.has(name)) return `"${name}" is another command's name`;
  // A name may not sit under another command's name, nor hold one under it (`a b` beside `a b c`).
  for (const other of taken)
    if (other.startsWith(`${name} `) || name.startsWith(`${other} `))
      return `"${name}" and "${other}" would shadow each other`;
  return undefined;
}

/**
 * One command's suggestion, field by field: a name that fits and is free (renames are recorded), descriptions and
 * phrasings that pass the text checks, flag descriptions of flags it has. Each field stands alone; whether any applied.
 */
function applySuggestion(
  command: CommandSpec,
  suggestion: Overlay["groups"][string]["commands"][string],
  at: string,
  ctx: {
    names: Set<string>;
    renamed: Map<string, string>;
    secrets: string[];
    reject: (field: string[], reason: string) => void;
  },
): boolean {
  const { names, renamed, secrets, reject } = ctx;
  let used = false;
  if (suggestion.name !== undefined && suggestion.name.trim() !== command.name) {
    const name = suggestion.name.trim();
    names.delete(command.name);
    const why = unfitName(name, names);
    if (why) {
      names.add(command.name);
      reject(["name"], why);
    } else {
      names.add(name);
      renamed.set(command.name, name);
      command.path = name.split(/\s+/);
      command.nameSource = {
        resource: { word: command.path[0]!, from: "overlay", text: at },
        action: { word: command.path[command.path.length - 1]!, from: "overlay", text: at },
        renamed: { from: command.nameSource.renamed?.from ?? command.name, entry: `${at}.name` },
      };
      command.name = name;
      used = true;
    }
  }
  if (suggestion.description !== undefined) {
    const why = unfitText(suggestion.description, 300, secrets);
    if (why) reject(["description"], why);
    else {
      command.description = suggestion.description.trim();
      used = true;
    }
  }
  if (suggestion.phrasings !== undefined) {
    const why = unfitPhrasings(suggestion.phrasings, secrets);
    if (why) reject(["phrasings"], why);
    else {
      command.phrasings = suggestion.phrasings.map((p) => p.trim());
      used = true;
    }
  }
  for (const [flag, text] of Object.entries(suggestion.flags ?? {})) {
    const bare = flag.replace(/^--/, "");
    const target = command.flags.find((f) => f.flag === bare);
    const why = !target
      ? "the command has no such flag"
      : RESERVED_FLAGS.has(bare)
        ? "a reserved flag"
        : unfitText(text, 300, secrets);
    if (why || !target) reject(["flags", flag], why ?? "the command has no such flag");
    else {
      target.description = text.trim();
      used = true;
    }
  }
  return used;
}

/**
 * The rules' plans with the overlay applied: each current, valid entry replaces the rules' name, description, flag
 * descriptions or Skill text; everything else stays as the rules made it. Renames follow into the Skills' links.
 */
export function applyOverlay(
  readModel: () => OperationModel,
  commands: CommandsPlan,
  skills: SkillsPlan,
  overlay: Overlay,
  secrets: string[] = [],
): { commands: CommandsPlan; skills: SkillsPlan; report: OverlayReport } {
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
      else if (question.key !== entry.key)
        report.stale.push(`groups.${group}: the operations or the brief changed since it was suggested`);
      else current.set(group, question);
    }
    const names = new Set(out.commands.map((c) => c.name));
    for (const [group, entry] of groupEntries) {
      if (!current.has(group)) continue;
      if (entry.description !== undefined) {
        const at = `groups.${group}.description`;
        const why =
          unfitText(entry.description, 300, secrets) ??
          (groupText(entry.description) ? undefined : "only a link: say what the group is for");
        if (why) report.rejected.push({ entry: at, path: ["groups", group, "description"], reason: why });
        else {
          out.groups = out.groups.map((g) => (g.name === group ? { ...g, description: entry.description!.trim() } : g));
          report.applied.push(at);
        }
      }
      for (const [operation, suggestion] of Object.entries(entry.commands)) {
        const at = `groups.${group}.commands.${operation}`;
        const command = out.commands.find((c) => c.operation.id === operation && c.path[0] === group);
        if (!command) {
          report.rejected.push({
            entry: at,
            path: ["groups", group, "commands", operation],
            reason: `no command of group "${group}" has operation ${operation}`,
          });
          continue;
        }
        // Each field stands alone: a bad flag description drops that description, not the entry's name.
        const reject = (field: string[], reason: string) =>
          report.rejected.push({
            entry: `${at}.${field.join(".")}`,
            path: ["groups", group, "commands", operation, ...field],
            reason,
          });
        if (applySuggestion(command, suggestion, at, { names, renamed, secrets, reject })) report.applied.push(at);
      }
    }
    if (renamed.size) {
      out.commands.sort((a, b) => compareText(a.name, b.name));
      for (const s of outSkills.skills) {
        s.commands = s.commands.map((n) => renamed.get(n) ?? n);
        s.links = s.links.map((l) => ({ ...l, command: renamed.get(l.command) ?? l.command }));
      }
    }
  }
  const commandNames = new Set(out.commands.map((c) => c.name));
  // A Skill entry is keyed by what it was asked with: the task and its commands under the overlay's names.
  const named = { skills: structuredClone(outSkills), commands: out };
  const keys = new Map<string, Map<string, string>>();
  const keyOf = (skill: string, modelName: string) => {
    if (!keys.has(modelName))
      keys.set(
        modelName,
        new Map(skillQuestions(named.skills, named.commands, modelName).map((q) => [q.skill, q.key])),
      );
    return keys.get(modelName)!.get(skill);
  };
  for (const [name, entry] of Object.entries(overlay.skills)) {
    const at = `skills.${name}`;
    const skill = outSkills.skills.find((s) => s.name === name);
    if (!skill) {
      report.stale.push(`${at}: no such Skill in the rules' design`);
      continue;
    }
    if (keyOf(name, entry.origin.model) !== entry.key) {
      report.stale.push(`${at}: the task or its commands changed since it was suggested`);
      continue;
    }
    const fit = fitSkill(entry, commandNames, commands.product.binary, secrets);
    for (const r of fit.rejected)
      report.rejected.push({ entry: `${at}.${r.field}`, path: ["skills", name, r.field], reason: r.reason });
    if (!Object.keys(fit.fields).length) continue;
    applySkill(skill, fit.fields);
    report.applied.push(at);
  }
  return { commands: out, skills: outSkills, report };
}

function applySkill(skill: SkillPlan, entry: SkillFields): void {
  if (entry.description) skill.description = entry.description.trim();
  if (entry.situation) skill.situation = entry.situation.trim();
  if (entry.avoid) skill.avoid = entry.avoid.trim();
  if (entry.steps?.length) skill.steps = entry.steps.map((s) => s.trim());
}

type SkillFields = Pick<OverlaySkill, "description" | "situation" | "avoid" | "steps">;

/**
 * The fields of a Skill entry that may ship, and why each other one may not: unfit text, or a command it names that
 * the CLI does not have. Fields stand alone (a bad step drops the steps, not the description).
 */
function fitSkill(
  entry: SkillFields,
  commands: Set<string>,
  binary: string,
  secrets: string[],
): { fields: SkillFields; rejected: Array<{ field: string; reason: string }> } {
  const fields: SkillFields = {};
  const rejected: Array<{ field: string; reason: string }> = [];
  const limits = { description: 1024, situation: 2000, avoid: 1000 } as const;
  for (const field of ["description", "situation", "avoid"] as const) {
    const text = entry[field];
    if (text === undefined) continue;
    const why = unfitText(text, limits[field], secrets) ?? unknownCommand(text, commands, binary, false);
    if (why) rejected.push({ field, reason: why });
    else fields[field] = text;
  }
  if (entry.steps !== undefined) {
    const why =
      entry.steps.length > 12
        ? `${count(entry.steps.length, "step")}, over 12`
        : entry.steps
            .map((step, i) => {
              const bad = unfitText(step, 500, secrets) ?? unknownCommand(step, commands, binary, true);
              return bad ? `step ${i + 1}: ${bad}` : undefined;
            })
            .find(Boolean);
    if (why) rejected.push({ field: "steps", reason: why });
    else if (entry.steps.length) fields.steps = entry.steps;
  }
  return { fields, rejected };
}

/**
 * Where text names `<binary> <words>` that is not a command of this CLI (nor a built-in one), why; else undefined.
 * Only the binary followed by a command's first word (a group) or a code span starting with the binary is a mention:
 * prose that happens to start with the binary's word ("find the rooms that are available", binary `rooms`) is not.
 * In steps a group word after the binary is enough; elsewhere only a code span is checked.
 */
function unknownCommand(text: string, commands: Set<string>, binary: string, step: boolean): string | undefined {
  const groups = new Set([...commands].map((c) => c.split(" ")[0]!));
  const quoted = binary.replace(/[.*+?^${}()|[\]\\-]/g, "\\$&");
  const mention = new RegExp(`(^|[\\s\`'"(])${quoted}((?:\\s+[a-z0-9][a-z0-9-]*){1,3})`, "g");
  const spans = [...text.matchAll(/`([^`]+)`/g)].map((m) => m[1]!.trim());
  const check = (words: string[]): string | undefined => {
    if (RESERVED_RESOURCES.has(words[0]!)) return undefined;
    const known = [3, 2].some((n) => words.length >= n && commands.has(words.slice(0, n).join(" ")));
    return known ? undefined : `names \`${binary} ${words.join(" ")}\`, which is not a command of this CLI`;
  };
  for (const span of spans) {
    const m = new RegExp(`^${quoted}((?:\\s+[a-z0-9][a-z0-9-]*){1,3})`).exec(span);
    const why = m && check(m[1]!.trim().split(/\s+/));
    if (why) return why;
  }
  if (!step) return undefined;
  for (const match of text.matchAll(mention)) {
    const words = match[2]!.trim().split(/\s+/);
    if (!groups.has(words[0]!) && !RESERVED_RESOURCES.has(words[0]!)) continue;
    const why = check(words);
    if (why) return why;
  }
  return undefined;
}

/** Phrasings are a list of at most 8 plain-text requests, each within 120 characters. */
function unfitPhrasings(phrasings: unknown, secrets: string[]): string | undefined {
  if (!Array.isArray(phrasings) || phrasings.some((p) => typeof p !== "string"))
    return "not a list of requests (strings)";
  if (phrasings.length > 8) return `${count(phrasings.length, "request")} (at most 8)`;
  for (const p of phrasings as string[]) {
    const why = unfitText(p, 120, secrets);
    if (why) return `"${p.slice(0, 40)}": ${why}`;
  }
  return undefined;
}
