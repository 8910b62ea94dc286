/**
 * Reads the product brief. The format is plain Markdown (docs/context.md describes it):
 *
 *   # <Product>            one or more paragraphs describing the product
 *   ## Rules               bullets every agent must follow
 *   ## Tasks and scenarios
 *   ### <task>             the situation, then labelled parts: "Expected outcome:" and "Rules:" (bullets)
 *   - <task>               or, where the section has no ### task, one list item per task
 */

/** `inter init`'s placeholders (src/cli/init/templates.ts): a brief that still holds one is not written yet. */
const PLACEHOLDER = /<!--\s*TODO/g;

/** The lines (1-based) where a `<!-- TODO … -->` placeholder starts; empty when the brief has none. */
export function placeholderLines(text: string): number[] {
  const lines: number[] = [];
  let line = 1;
  let at = 0;
  for (const match of text.matchAll(PLACEHOLDER)) {
    for (; at < match.index; at++) if (text.charCodeAt(at) === 10) line++;
    if (lines[lines.length - 1] !== line) lines.push(line);
  }
  return lines;
}

/**
 * The brief without its HTML comments, each replaced by the line breaks it held (so line numbers stay): a comment is
 * a note to whoever edits the file, never text for a rule, a Skill or a description. An unclosed `<!--` hides the rest,
 * as it does when the Markdown is rendered.
 */
export function withoutComments(text: string): string {
  return text.replace(/<!--[\s\S]*?(?:-->|$)/g, (comment) => comment.replace(/[^\n]/g, ""));
}

export interface BriefTask {
  title: string;
  situation: string;
  outcome: string;
  rules: string[];
  line: number;
  /** Labelled paragraphs ("Notes:") that are none of the known parts; their text stays in the situation. */
  unknownLabels: Array<{ label: string; line: number }>;
}

export interface Brief {
  title: string;
  description: string;
  rules: string[];
  tasks: BriefTask[];
}

interface Section {
  level: number;
  title: string;
  line: number;
  body: string[];
}

/**
 * An ATX heading ("### Title ##"), read without a backtracking regular expression: a heading of thousands of spaces
 * must take linear time (the brief is untrusted input).
 */
function headingOf(line: string): { level: number; title: string } | null {
  const marks = /^#{1,6}/.exec(line)?.[0];
  if (!marks || !/^\s/.test(line.slice(marks.length))) return null;
  let title = line.slice(marks.length).trim();
  const closing = title.length - title.replace(/#+$/, "").length;
  if (closing && (closing === title.length || /\s/.test(title[title.length - closing - 1]!)))
    title = title.slice(0, title.length - closing).trim();
  return { level: marks.length, title };
}

function sections(text: string): Section[] {
  const out: Section[] = [{ level: 0, title: "", line: 0, body: [] }];
  let fence = false;
  text.split(/\r?\n/).forEach((line, i) => {
    if (/^\s*(```|~~~)/.test(line)) fence = !fence;
    const heading = fence ? null : headingOf(line);
    if (heading) out.push({ level: heading.level, title: heading.title, line: i + 1, body: [] });
    else out[out.length - 1]!.body.push(line);
  });
  return out;
}

const clean = (lines: string[]) =>
  lines
    .join("\n")
    .split(/\n\s*\n/)
    .map((p) => p.replace(/\s*\n\s*/g, " ").trim())
    .filter(Boolean)
    .join("\n\n");

const bullets = (lines: string[]) =>
  lines.map((l) => /^\s*(?:[-*+]|\d+[.)])\s+(.*)$/.exec(l)?.[1]?.trim()).filter((b): b is string => !!b);

/**
 * A labelled part: a line that starts with a short label and a colon ("Expected outcome:", "**Relevant rules or
 * constraints:**", "- Success criteria:"), optionally followed by text. The label's words decide the part.
 */
const LABEL =
  /^\s*(?:[-*+]\s+)?(?:\*\*|__)?\s*([A-Za-z][A-Za-z /'’-]{0,48}?)\s*(?::\s*(?:\*\*|__)?|(?:\*\*|__)\s*:)\s*(.*)$/;
const PART_WORDS: Array<[RegExp, "situation" | "outcome" | "rules"]> = [
  [
    /\b(rules?|constraints?|guardrails?|polic(y|ies)|limits?|limitations?|requirements?|restrictions?|must|never|don'?ts?|do not|caveats?|boundar(y|ies))\b/i,
    "rules",
  ],
  [
    /\b(outcomes?|results?|success|done|definition of done|acceptance|deliverables?|expected|goals?|output)\b/i,
    "outcome",
  ],
  [
    /\b(situation|context|background|scenario|trigger|when|who|user|actor|story|description|details|inputs?|given)\b/i,
    "situation",
  ],
];

function partOf(label: string): "situation" | "outcome" | "rules" | undefined {
  return PART_WORDS.find(([re]) => re.test(label))?.[1];
}

function readTask(section: Section, children: Section[]): BriefTask {
  const parts: Record<"situation" | "outcome" | "rules", string[]> = { situation: [], outcome: [], rules: [] };
  const unknownLabels: BriefTask["unknownLabels"] = [];
  let current: keyof typeof parts = "situation";
  const take = (lines: string[], firstLine: number) => {
    lines.forEach((line, i) => {
      const label = LABEL.exec(line);
      // A label is a short noun phrase ("Relevant rules or constraints"); "The rules are simple: …" is a sentence.
      if (
        label &&
        label[1]!.trim().split(/\s+/).length <= 6 &&
        !/\b(is|are|was|were|be|will|can|should)\b/i.test(label[1]!)
      ) {
        const part = partOf(label[1]!);
        if (part) {
          current = part;
          if (label[2]) parts[current].push(label[2]);
          return;
        }
        if (!label[2]) unknownLabels.push({ label: label[1]!.trim(), line: firstLine + i });
      }
      parts[current].push(line);
    });
  };
  take(section.body, section.line + 1);
  for (const child of children) {
    const part = partOf(child.title);
    if (part) current = part;
    else unknownLabels.push({ label: child.title, line: child.line });
    take(child.body, child.line + 1);
  }
  const ruleBullets = bullets(parts.rules);
  return {
    title: section.title,
    situation: clean(parts.situation),
    outcome: clean(parts.outcome),
    rules: ruleBullets.length ? ruleBullets : clean(parts.rules).split("\n\n").filter(Boolean),
    line: section.line,
    unknownLabels,
  };
}

/**
 * Tasks written as a list (`- Book a room for a meeting`) where the tasks section has no `###` task: each top-level
 * item is a task titled by its first clause, the rest of the item (its other sentences, indented lines and
 * sub-items, read as `readTask` reads a task's body) its situation, outcome and rules.
 */
function bulletTasks(section: Section): BriefTask[] {
  const items: Section[] = [];
  section.body.forEach((line, i) => {
    const item = /^(?:[-*+]|\d+[.)])\s+(.*\S)\s*$/.exec(line);
    if (item) {
      const { title, rest } = itemTitle(item[1]!);
      items.push({ level: 3, title, line: section.line + 1 + i, body: rest ? [rest] : [] });
    } else if (items.length && (/^\s+\S/.test(line) || !line.trim())) items[items.length - 1]!.body.push(line);
    else if (items.length) items.push({ level: 0, title: "", line: 0, body: [] });
  });
  return items.filter((s) => s.title).map((s) => readTask({ ...s, body: dedent(s.body) }, []));
}

/**
 * An item's title — its bold lead (`**Cancel a booking.**`) or else its first clause (`Create a card on a list, with
 * a name` → "Create a card on a list") — and the rest, which is the task's situation.
 */
function itemTitle(text: string): { title: string; rest: string } {
  const lead = /^(\*\*|__)(.+?)\1\s*(.*)$/.exec(text) ?? /^()(\S+\s.+?)[.!?:;,](?:\s+(.*))?$/.exec(text);
  const title = (lead?.[2] ?? text).replace(/[.!?:]$/, "").trim();
  return { title, rest: lead?.[3]?.replace(/^[.:]\s*/, "") ?? "" };
}

/** Lines of a list item's continuation without the indentation they share. */
function dedent(lines: string[]): string[] {
  const indent = Math.min(...lines.filter((l) => l.trim()).map((l) => /^\s*/.exec(l)![0].length));
  return Number.isFinite(indent) ? lines.map((l) => l.slice(indent)) : lines;
}

export function parseBrief(text: string): Brief {
  const all = sections(withoutComments(text));
  const h1 = all.find((s) => s.level === 1);
  const tasksAt = all.findIndex((s) => s.level === 2 && /^tasks?\b|scenarios?/i.test(s.title));
  const overview = all.find((s) => s.level === 2 && /^(product|overview|about|description)\b/i.test(s.title));
  const rulesSection = all.find((s) => s.level === 2 && /^(rules|guardrails|policies)\b/i.test(s.title));
  const tasks: BriefTask[] = [];
  if (tasksAt >= 0) {
    for (let i = tasksAt + 1; i < all.length && all[i]!.level > 2; i++) {
      // A heading that held only a comment names no task.
      if (all[i]!.level !== 3 || !all[i]!.title) continue;
      const children: Section[] = [];
      for (let j = i + 1; j < all.length && all[j]!.level > 3; j++) children.push(all[j]!);
      tasks.push(readTask(all[i]!, children));
    }
    if (!tasks.length) tasks.push(...bulletTasks(all[tasksAt]!));
  }
  return {
    title: h1?.title ?? "",
    description: clean([...(h1?.body ?? []), ...(overview?.body ?? [])]),
    rules: rulesSection ? bullets(rulesSection.body) : [],
    tasks,
  };
}
