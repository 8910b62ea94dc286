import type { Brief, BriefTask } from "./context.js";
import { kebab, singular } from "./names.js";
import type { CommandSpec, SkillPlan, SkillsPlan } from "./types.js";

const STOP = new Set("a an and are as at be by can do for from has have how i if in into is it its me my of on or our so that the their them then there these they this to up us was we what when which who will with you your should must not no all any each new want wants need needs one".split(" "));

/** Words a person uses for an action, mapped to the verbs generated commands use. */
const SYNONYMS: Record<string, string[]> = {
  find: ["list", "get", "search"],
  search: ["list", "search"],
  look: ["list", "get"],
  see: ["list", "get"],
  check: ["get", "list"],
  show: ["get", "list"],
  browse: ["list"],
  view: ["get"],
  book: ["create", "booking"],
  reserve: ["create", "booking"],
  schedule: ["create"],
  make: ["create"],
  add: ["create"],
  open: ["create"],
  cancel: ["cancel", "delete"],
  cancelled: ["cancel"],
  canceled: ["cancel"],
  listing: ["list"],
  finding: ["list", "get"],
  remove: ["delete"],
  change: ["update", "replace"],
  edit: ["update"],
  modify: ["update"],
  rename: ["update"],
  available: ["availability"],
  free: ["availability"],
};

/** Plural folding only: stripping -ing/-ed turns nouns into verbs ("bookings" into "book"). */
const stem = singular;

function tokens(text: string): string[] {
  return kebab(text)
    .split("-")
    .filter((t) => t.length > 1 && !STOP.has(t))
    .map(stem);
}

function commandTerms(command: CommandSpec): Map<string, number> {
  const weights = new Map<string, number>();
  const add = (text: string | undefined, weight: number) => {
    for (const t of tokens(text ?? "")) weights.set(t, Math.max(weights.get(t) ?? 0, weight));
  };
  add(command.description, 1);
  add(command.operation.operationId, 1);
  add(command.flags.map((f) => f.flag).join(" "), 0.25);
  add(command.path.slice(0, -1).join(" "), 3);
  add(command.path[command.path.length - 1], 2);
  return weights;
}

const VERBS = new Set(["list", "get", "create", "update", "replace", "delete", "cancel", "search"]);
const READ_WORDS = new Set(["report", "know", "plan", "list", "review", "audit", "count", "summarize", "export"]);

interface TaskWords {
  words: Map<string, number>;
  verbs: Set<string>;
}

/** Title words count double: the title is the clearest statement of the job. */
function taskWords(task: BriefTask): TaskWords {
  const words = new Map<string, number>();
  const verbsOf = (text: string) => {
    const verbs = new Set<string>();
    for (const w of tokens(text)) {
      if (VERBS.has(w)) verbs.add(w);
      for (const s of SYNONYMS[w] ?? []) if (VERBS.has(s)) verbs.add(s);
      if (READ_WORDS.has(w)) verbs.add("list").add("get");
    }
    return verbs;
  };
  const add = (text: string, weight: number) => {
    for (const w of tokens(text)) {
      for (const s of [w, ...(SYNONYMS[w] ?? []).map(stem)]) words.set(s, Math.max(words.get(s) ?? 0, weight));
    }
  };
  add(`${task.situation} ${task.outcome} ${task.rules.join(" ")}`, 1);
  add(task.title, 2);
  return { words, verbs: verbsOf(`${task.title} ${task.situation} ${task.outcome}`) };
}

function score(task: TaskWords, command: CommandSpec, terms: Map<string, number>, idf: Map<string, number>): number {
  let total = 0;
  for (const [w, weight] of task.words) total += (terms.get(w) ?? 0) * weight * (idf.get(w) ?? 0);
  // A command whose action the task never asks for is a weak match however many nouns it shares.
  const verb = command.path[command.path.length - 1]!.replace(/-\d+$/, "");
  return task.verbs.size && !task.verbs.has(verb) ? total * 0.4 : total;
}

const MAX_COMMANDS = 6;

/** The commands that serve a task, most relevant first: every one exists, because it is chosen from `commands`. */
export function linkCommands(task: BriefTask, commands: CommandSpec[]): string[] {
  const words = taskWords(task);
  const visible = commands.filter((c) => !c.hidden);
  const terms = visible.map((c) => commandTerms(c));
  // Words most commands share ("booking" in a bookings API) say little about which command a task needs.
  const df = new Map<string, number>();
  for (const t of terms) for (const w of t.keys()) df.set(w, (df.get(w) ?? 0) + 1);
  const idf = new Map([...df].map(([w, n]) => [w, Math.log(1 + visible.length / n)]));
  const scored = visible
    .map((c, i) => ({ name: c.name, score: score(words, c, terms[i]!, idf) }))
    .filter((c) => c.score >= 2)
    .sort((a, b) => b.score - a.score || a.name.localeCompare(b.name));
  const best = scored[0]?.score ?? 0;
  return scored.filter((c) => c.score >= best * 0.5).slice(0, MAX_COMMANDS).map((c) => c.name);
}

const firstSentence = (text: string) => (/^(.*?[.!?])(\s|$)/.exec(text.replace(/\s+/g, " "))?.[1] ?? text).trim();
const noBrackets = (text: string) => text.replace(/[<>]/g, "");

function describe(task: BriefTask, others: Array<{ name: string; title: string }>, product: string): string {
  const parts = [`Use when ${firstSentence(task.situation || task.title).replace(/^[A-Z]/, (c) => c.toLowerCase())}`];
  if (task.outcome) parts.push(`Outcome: ${firstSentence(task.outcome)}`);
  if (others.length) parts.push(`Not for: ${others.map((o) => `${o.title.toLowerCase()} (skill ${o.name})`).join("; ")}.`);
  else parts.push(`Not for work outside ${product}.`);
  let text = noBrackets(parts.map((p) => (/[.!?]$/.test(p) ? p : `${p}.`)).join(" "));
  if (text.length > 1024) text = `${text.slice(0, 1020).replace(/\s+\S*$/, "")}…`;
  return text;
}

export function skillName(title: string, taken: Set<string>): string {
  const base = (kebab(title) || "task").slice(0, 64).replace(/-+$/, "");
  let name = base;
  for (let n = 2; taken.has(name); n++) name = `${base.slice(0, 64 - String(n).length - 1).replace(/-+$/, "")}-${n}`;
  taken.add(name);
  return name;
}

export function planSkills(brief: Brief, commands: CommandSpec[], productName: string): { plan: SkillsPlan; warnings: string[] } {
  const warnings: string[] = [];
  if (!brief.description) warnings.push("context.md has no product description: add a paragraph under the top `# <Product>` heading saying what the product is and who uses it");
  if (!brief.tasks.length) warnings.push("context.md has no tasks: add `## Tasks and scenarios` with one `### <task>` per job users do; no Skills are planned until then");
  const taken = new Set<string>();
  const named = brief.tasks.map((t) => ({ task: t, name: skillName(t.title, taken) }));
  const skills: SkillPlan[] = named.map(({ task, name }) => {
    const linked = linkCommands(task, commands);
    if (!task.outcome) warnings.push(`task "${task.title}" (context.md line ${task.line}) has no "Expected outcome:"; agents and evaluations need one`);
    if (!linked.length) warnings.push(`task "${task.title}" (context.md line ${task.line}) matches no command; name the resources and actions it involves`);
    const others = named.filter((n) => n.name !== name).map((n) => ({ name: n.name, title: n.task.title }));
    return {
      name,
      title: task.title,
      description: describe(task, others, productName),
      situation: task.situation,
      outcome: task.outcome,
      rules: [...task.rules],
      commands: linked,
    };
  });
  return { plan: { product: { name: brief.title || productName, description: brief.description }, rules: brief.rules, skills }, warnings };
}
