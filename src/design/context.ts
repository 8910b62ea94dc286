/**
 * Reads the product brief. The format is plain Markdown (docs/context.md describes it):
 *
 *   # <Product>            one or more paragraphs describing the product
 *   ## Rules               bullets every agent must follow
 *   ## Tasks and scenarios
 *   ### <task>             the situation, then labelled parts: "Expected outcome:" and "Rules:" (bullets)
 */

export interface BriefTask {
  title: string;
  situation: string;
  outcome: string;
  rules: string[];
  line: number;
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

function sections(text: string): Section[] {
  const out: Section[] = [{ level: 0, title: "", line: 0, body: [] }];
  let fence = false;
  text.split(/\r?\n/).forEach((line, i) => {
    if (/^\s*(```|~~~)/.test(line)) fence = !fence;
    const heading = fence ? null : /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) out.push({ level: heading[1]!.length, title: heading[2]!.trim(), line: i + 1, body: [] });
    else out[out.length - 1]!.body.push(line);
  });
  return out;
}

const clean = (lines: string[]) =>
  lines
    .join("\n")
    .replace(/<!--[\s\S]*?-->/g, "")
    .split(/\n\s*\n/)
    .map((p) => p.replace(/\s*\n\s*/g, " ").trim())
    .filter(Boolean)
    .join("\n\n");

const bullets = (lines: string[]) =>
  lines
    .map((l) => /^\s*(?:[-*+]|\d+[.)])\s+(.*)$/.exec(l)?.[1]?.trim())
    .filter((b): b is string => !!b);

const LABEL = /^\s*(?:[-*+]\s+)?(?:\*\*|__|_|\*)?\s*(situation|context|expected outcome|outcome|success|rules|constraints)\s*:?\s*(?:\*\*|__|_|\*)?\s*:?\s*(.*)$/i;

function readTask(section: Section, children: Section[]): BriefTask {
  const parts: Record<"situation" | "outcome" | "rules", string[]> = { situation: [], outcome: [], rules: [] };
  let current: keyof typeof parts = "situation";
  const take = (lines: string[]) => {
    for (const line of lines) {
      const label = LABEL.exec(line);
      if (label) {
        const name = label[1]!.toLowerCase();
        current = name.includes("outcome") || name === "success" ? "outcome" : name === "rules" || name === "constraints" ? "rules" : "situation";
        if (label[2]) parts[current].push(label[2]);
        continue;
      }
      parts[current].push(line);
    }
  };
  take(section.body);
  for (const child of children) {
    take([`${child.title}:`, ...child.body]);
  }
  const ruleBullets = bullets(parts.rules);
  return {
    title: section.title,
    situation: clean(parts.situation),
    outcome: clean(parts.outcome),
    rules: ruleBullets.length ? ruleBullets : parts.rules.map((l) => l.trim()).filter(Boolean),
    line: section.line,
  };
}

export function parseBrief(text: string): Brief {
  const all = sections(text);
  const h1 = all.find((s) => s.level === 1);
  const tasksAt = all.findIndex((s) => s.level === 2 && /^tasks?\b|scenarios?/i.test(s.title));
  const overview = all.find((s) => s.level === 2 && /^(product|overview|about|description)\b/i.test(s.title));
  const rulesSection = all.find((s) => s.level === 2 && /^(rules|guardrails|policies)\b/i.test(s.title));
  const tasks: BriefTask[] = [];
  if (tasksAt >= 0) {
    for (let i = tasksAt + 1; i < all.length && all[i]!.level > 2; i++) {
      if (all[i]!.level !== 3) continue;
      const children: Section[] = [];
      for (let j = i + 1; j < all.length && all[j]!.level > 3; j++) children.push(all[j]!);
      tasks.push(readTask(all[i]!, children));
    }
  }
  return {
    title: h1?.title ?? "",
    description: clean([...(h1?.body ?? []), ...(overview?.body ?? [])]),
    rules: rulesSection ? bullets(rulesSection.body) : [],
    tasks,
  };
}
