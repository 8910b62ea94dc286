import { InterError } from "../../core/errors.js";
import { Budget, mapLimit, type ModelClient, type Spent, type Usage } from "../../model/client.js";
import type { OperationModel } from "../openapi/model.js";
import {
  applyOverlay,
  groupQuestions,
  PROMPT_VERSION,
  skillQuestions,
  type GroupQuestion,
  type Overlay,
  type OverlayCommand,
  type SkillQuestion,
} from "./overlay.js";
import type { CommandsPlan, SkillsPlan } from "./types.js";
import { compareText } from "../../core/text-order.js";

/**
 * `inter design suggest`: asks a model, per command group and per Skill, for what a person would write, and records
 * the answers in the overlay under the key of what was asked. Only questions whose key the overlay lacks are asked
 * (all of them with `refresh`), so a warm re-run sends nothing.
 */

const SYSTEM_GROUP = `You name the commands of a command-line tool generated from an HTTP API, for AI agents that find commands by guessing names and reading help.
For each operation you are given, answer:
- name: the whole command after the binary, two or three lowercase kebab-case words, noun first: "<resource> <action>" or "<resource> <sub-resource> <action>". The resource is the thing acted on (plural noun, as the group name you are given unless it is wrong). The action is what the operation does in the words its summary uses (save, pause, check, send, cancel, archive, follow …); use list/get/create/update/replace/delete only for plain resource operations. Never use HTTP method words (post, put, patch), stop words (a, the, of, for, to, by), version tokens (v1), or numbers. At most 48 characters. Every name must be unique within the tool.
- description: one line of plain text (no Markdown, no HTML), at most 120 characters, saying what the command does for the user, starting with a verb.
- flags: for the flags listed, a one-line plain-text description (at most 120 characters) where the document's own is missing or unclear; omit flags that are already clear.
- phrasings: 3 to 6 requests a user of the product might say to their AI agent when they need this operation, in their own words — the goal, the way people talk ("the customer wants their money back"), not the API's terms or the command's name — each at most 100 characters, plain text, no example values that look like keys.
Never include credentials, keys, tokens, URLs with secrets, or example values that look like keys. Answer only through the schema.`;

const SYSTEM_SKILL = `You write an Agent Skill: instructions an AI coding agent loads when a user asks for a task, telling it which commands of a command-line tool to run.
Answer:
- description: at most 600 characters, plain text: what the Skill does and when to use it, then "Not for:" and when not to use it (neighbouring tasks).
- situation: when to use it, in the user's words (2–4 sentences).
- avoid: when not to use it (1–3 sentences).
- steps: 2 to 8 short imperative steps; name real commands exactly as given, as \`<binary> <command> --flag <value>\`, and no others.
Never include credentials, keys or tokens. Answer only through the schema.`;

const GROUP_SCHEMA = {
  type: "object",
  additionalProperties: false,
  required: ["commands"],
  properties: {
    commands: {
      type: "array",
      items: {
        type: "object",
        additionalProperties: false,
        required: ["operation", "name", "description", "flags", "phrasings"],
        properties: {
          operation: { type: "string", description: "The operation id, exactly as given." },
          name: { type: "string" },
          description: { type: "string" },
          phrasings: { type: "array", items: { type: "string" } },
          flags: {
            type: "array",
            items: {
              type: "object",
              additionalProperties: false,
              required: ["flag", "description"],
              properties: { flag: { type: "string" }, description: { type: "string" } },
            },
          },
        },
      },
    },
  },
} as const;

const SKILL_SCHEMA = {
  type: "object",
  additionalProperties: false,
  required: ["description", "situation", "avoid", "steps"],
  properties: {
    description: { type: "string" },
    situation: { type: "string" },
    avoid: { type: "string" },
    steps: { type: "array", items: { type: "string" } },
  },
} as const;

export interface SuggestOptions {
  client: ModelClient;
  modelName: string;
  /** Ask every question again, not only those the overlay lacks. */
  refresh?: boolean;
  concurrency?: number;
  budget?: Budget;
  signal?: AbortSignal;
  /** Values that must never be written (the model key): an answer holding one is dropped. */
  secrets?: string[];
  onProgress?: (event: {
    kind: "group" | "skill";
    name: string;
    state: "asked" | "answered" | "kept" | "rejected" | "failed";
    usage?: Usage;
    error?: string;
  }) => void;
}

/** One answer, or part of one, that was not recorded, and why. `entry` is its dotted place in the overlay. */
export interface Dropped {
  entry: string;
  reason: string;
}

export interface SuggestResult {
  overlay: Overlay;
  /** Requests sent this run. */
  asked: number;
  /** Requests answered with a usable object. */
  answered: number;
  /** Questions the overlay already answered (their key still matches): not asked. */
  current: number;
  /** Entries (a command's or a Skill's) written from this run's answers, each with at least one field that passes. */
  recorded: number;
  /** What this run's answers held that was not recorded: a field that fails the build's checks, an unasked operation. */
  rejected: Dropped[];
  failed: Array<{ entry: string; code: string; message: string }>;
  spent: Spent;
}

function groupPrompt(question: GroupQuestion, skills: SkillsPlan, binary: string): string {
  return JSON.stringify(
    {
      tool: binary,
      product: skills.product.name,
      about: skills.product.description.slice(0, 600),
      userTasks: skills.skills.map((s) => s.title),
      group: question.group,
      operations: question.operations,
    },
    null,
    1,
  );
}

function skillPrompt(question: SkillQuestion, binary: string, product: string): string {
  return JSON.stringify(
    {
      tool: binary,
      product,
      task: question.task,
      commands: question.commands.map((c) => ({ command: `${binary} ${c.name}`, does: c.description })),
    },
    null,
    1,
  );
}

/**
 * One group's answer as overlay entries, by operation id. An answer about an operation it was not asked about, or a
 * second answer about one, is dropped and named.
 */
function groupEntry(
  question: GroupQuestion,
  value: unknown,
): { commands: Record<string, OverlayCommand>; dropped: Dropped[] } {
  const asked = new Set(question.operations.map((o) => o.id));
  const out: Record<string, OverlayCommand> = {};
  const dropped: Dropped[] = [];
  for (const c of (
    value as {
      commands?: Array<{
        operation: string;
        name: string;
        description: string;
        flags: Array<{ flag: string; description: string }>;
        phrasings?: string[];
      }>;
    }
  ).commands ?? []) {
    const at = `groups.${question.group}.commands.${c.operation}`;
    if (!asked.has(c.operation))
      dropped.push({
        entry: at,
        reason: `the group has no operation ${JSON.stringify(c.operation)}; the model was not asked about it`,
      });
    else if (out[c.operation]) dropped.push({ entry: at, reason: "answered twice; the first answer is kept" });
    else
      out[c.operation] = {
        name: c.name,
        description: c.description,
        ...(c.flags.length
          ? { flags: Object.fromEntries(c.flags.map((f) => [f.flag.replace(/^--/, ""), f.description])) }
          : {}),
        ...(Array.isArray(c.phrasings) && c.phrasings.length ? { phrasings: c.phrasings } : {}),
      };
  }
  return { commands: out, dropped };
}

const scrub = <T>(value: T, secrets: string[]): T => {
  const text = JSON.stringify(value);
  if (secrets.some((s) => s.length >= 6 && text.includes(s)))
    throw new InterError(
      "MODEL_OUTPUT_INVALID",
      "The model's answer holds the model key; it was not recorded.",
      "Nothing was written from this answer; run again, and rotate the key if the answer was logged anywhere.",
      {},
    );
  return value;
};

/** Deletes the field at `path` of the overlay, and the command entry it leaves empty. */
function prune(overlay: Overlay, path: string[]): void {
  let node: Record<string, unknown> = overlay as unknown as Record<string, unknown>;
  for (const key of path.slice(0, -1)) {
    const next = node[key];
    if (!next || typeof next !== "object") return;
    node = next as Record<string, unknown>;
  }
  delete node[path[path.length - 1]!];
  if (path[0] === "groups" && path.length > 4) {
    const command = overlay.groups[path[1]!]?.commands[path[3]!];
    if (command?.flags && !Object.keys(command.flags).length) delete command.flags;
    if (command && !Object.keys(command).length) delete overlay.groups[path[1]!]!.commands[path[3]!];
  }
}

/**
 * One question to the model, within the budget: its answer scrubbed of secrets, or undefined when that one answer was
 * unusable (recorded in `failed`); a failure of the whole run (no key, no server, the budget) is thrown.
 */
function asker(
  options: SuggestOptions,
  budget: Budget,
  secrets: string[],
  counts: { asked: number; answered: number },
  failed: SuggestResult["failed"],
) {
  return async <T>(
    kind: "group" | "skill",
    name: string,
    system: string,
    user: string,
    schemaName: string,
    schema: object,
  ): Promise<T | undefined> => {
    budget.check();
    counts.asked++;
    options.onProgress?.({ kind, name, state: "asked" });
    try {
      const answer = await options.client.complete({ system, user, schemaName, schema }, options.signal);
      budget.charge(options.modelName, answer.usage);
      const value = scrub(answer.value as T, secrets);
      counts.answered++;
      options.onProgress?.({ kind, name, state: "answered", usage: answer.usage });
      return value;
    } catch (error) {
      const e =
        error instanceof InterError
          ? error
          : new InterError("INTERNAL_ERROR", (error as Error).message, "Report it.", {});
      const usage = (e.details as { usage?: Usage } | undefined)?.usage;
      if (usage) budget.charge(options.modelName, usage);
      // A run-wide failure stops the run; one bad answer is that entry's failure.
      if (e.code !== "MODEL_OUTPUT_INVALID") throw e;
      failed.push({ entry: `${kind}s.${name}`, code: e.code, message: e.message });
      options.onProgress?.({ kind, name, state: "failed", error: e.message });
      return undefined;
    }
  };
}

export async function suggestOverlay(
  model: OperationModel,
  commands: CommandsPlan,
  skills: SkillsPlan,
  current: Overlay,
  options: SuggestOptions,
): Promise<SuggestResult> {
  const budget = options.budget ?? new Budget({});
  const overlay: Overlay = structuredClone(current);
  const secrets = options.secrets ?? [];
  const failed: SuggestResult["failed"] = [];
  const rejected: Dropped[] = [];
  const counts = { asked: 0, answered: 0 };
  let kept = 0;
  const binary = commands.product.binary;
  const ask = asker(options, budget, secrets, counts, failed);
  /** Drops, from the entries this run wrote, every field the build would reject, so the file holds what it applies. */
  const checkAnswers = (prefix: "groups" | "skills", fresh: Set<string>, against: Overlay) => {
    const { report } = applyOverlay(() => model, commands, skills, against, secrets);
    for (const r of report.rejected) {
      // Only what this run's answers wrote: a description or Skill text people edited in stays for the build to report.
      if (r.path[0] !== prefix || !fresh.has(r.path[1]!) || (prefix === "groups" && r.path[2] !== "commands")) continue;
      prune(overlay, r.path);
      rejected.push({ entry: r.entry, reason: r.reason });
      options.onProgress?.({
        kind: prefix === "groups" ? "group" : "skill",
        name: r.entry,
        state: "rejected",
        error: r.reason,
      });
    }
  };

  // Groups first: the Skills are then asked with the names and descriptions the overlay gives.
  const groups = groupQuestions(model, commands, skills, options.modelName);
  const liveGroups = new Set(groups.map((q) => q.group));
  for (const group of Object.keys(overlay.groups)) if (!liveGroups.has(group)) delete overlay.groups[group];
  const toAsk = groups.filter(
    (q) =>
      options.refresh ||
      overlay.groups[q.group]?.key !== q.key ||
      overlay.groups[q.group]?.origin.model !== options.modelName,
  );
  kept += groups.length - toAsk.length;
  for (const q of groups) if (!toAsk.includes(q)) options.onProgress?.({ kind: "group", name: q.group, state: "kept" });
  const freshGroups = new Set<string>();
  await mapLimit(toAsk, options.concurrency ?? 4, async (q) => {
    const value = await ask<unknown>(
      "group",
      q.group,
      SYSTEM_GROUP,
      groupPrompt(q, skills, binary),
      "command_names",
      GROUP_SCHEMA,
    );
    if (value === undefined) return;
    // A group description people wrote stays when the commands are asked again.
    const description = overlay.groups[q.group]?.description;
    const entry = groupEntry(q, value);
    for (const d of entry.dropped) {
      rejected.push(d);
      options.onProgress?.({ kind: "group", name: d.entry, state: "rejected", error: d.reason });
    }
    overlay.groups[q.group] = {
      key: q.key,
      origin: { model: options.modelName, promptVersion: PROMPT_VERSION },
      ...(description !== undefined ? { description } : {}),
      commands: entry.commands,
    };
    freshGroups.add(q.group);
  });
  if (freshGroups.size) checkAnswers("groups", freshGroups, { ...overlay, skills: {} });

  // A Skill's question holds its commands under the overlay's names; its key is of that question, as the build checks.
  const named = applyOverlay(() => model, commands, skills, { ...overlay, skills: {} }, secrets);
  const skillQs = skillQuestions(named.skills, named.commands, options.modelName);
  const liveSkills = new Set(skillQs.map((q) => q.skill));
  for (const skill of Object.keys(overlay.skills)) if (!liveSkills.has(skill)) delete overlay.skills[skill];
  const skillsToAsk = skillQs.filter(
    (q) =>
      options.refresh ||
      overlay.skills[q.skill]?.key !== q.key ||
      overlay.skills[q.skill]?.origin.model !== options.modelName,
  );
  kept += skillQs.length - skillsToAsk.length;
  for (const q of skillQs)
    if (!skillsToAsk.includes(q)) options.onProgress?.({ kind: "skill", name: q.skill, state: "kept" });
  const freshSkills = new Set<string>();
  await mapLimit(skillsToAsk, options.concurrency ?? 4, async (q) => {
    const value = await ask<{ description: string; situation: string; avoid: string; steps: string[] }>(
      "skill",
      q.skill,
      SYSTEM_SKILL,
      skillPrompt(q, binary, skills.product.name),
      "agent_skill",
      SKILL_SCHEMA,
    );
    if (value === undefined) return;
    overlay.skills[q.skill] = {
      key: q.key,
      origin: { model: options.modelName, promptVersion: PROMPT_VERSION },
      description: value.description,
      situation: value.situation,
      avoid: value.avoid,
      steps: value.steps,
    };
    freshSkills.add(q.skill);
  });
  if (freshSkills.size) checkAnswers("skills", freshSkills, overlay);

  const fields = (entry: object) => Object.keys(entry).filter((k) => k !== "key" && k !== "origin").length > 0;
  const recorded =
    [...freshGroups].reduce((n, g) => n + Object.keys(overlay.groups[g]?.commands ?? {}).length, 0) +
    [...freshSkills].filter((s) => overlay.skills[s] && fields(overlay.skills[s]!)).length;
  return {
    overlay: sortOverlay(overlay),
    asked: counts.asked,
    answered: counts.answered,
    current: kept,
    recorded,
    rejected,
    failed,
    spent: budget.spent(),
  };
}

/** Keys in a fixed order, so the file diffs well in review and its hash depends on content alone. */
function sortOverlay(overlay: Overlay): Overlay {
  const sorted = <T>(record: Record<string, T>) =>
    Object.fromEntries(Object.entries(record).sort(([a], [b]) => compareText(a, b)));
  return {
    format: overlay.format,
    groups: sorted(
      Object.fromEntries(Object.entries(overlay.groups).map(([k, g]) => [k, { ...g, commands: sorted(g.commands) }])),
    ),
    skills: sorted(overlay.skills),
  };
}
