import type { TriggerQuery } from "./queries.js";
import type { CandidateSkill } from "./skills.js";

/** The first paragraph of a SKILL.md section (the brief's task prose, as the Skill carries it). */
function section(text: string, heading: RegExp): string | undefined {
  const lines = text.replace(/\r\n/g, "\n").split("\n");
  const start = lines.findIndex((l) => /^#{2,3}\s/.test(l) && heading.test(l));
  if (start < 0) return undefined;
  const body: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (/^#{1,3}\s/.test(line)) break;
    if (!line.trim()) {
      if (body.length) break;
      continue;
    }
    body.push(line.trim());
  }
  return body.join(" ") || undefined;
}

const title = (text: string) => /^#\s+(.+)$/m.exec(text)?.[1]?.trim();

/** What a person would type for a Skill's task: its title, and the brief's prose of when it applies. */
function requests(skill: CandidateSkill): string[] {
  const text = skill.files["SKILL.md"] ?? "";
  const when = section(text, /when to use/i);
  return [title(text), when].filter((q): q is string => Boolean(q));
}

/**
 * A draft query set per Skill, from what the candidate carries of its brief: the Skill's own task (its title and
 * "When to use" prose) should trigger it; each neighbouring Skill's task is a near miss that should trigger that
 * neighbour instead; a question about the tool itself should trigger none. Marked draft: a person reviews and
 * rewrites them in their users' words (`inter eval review-triggers`) before they gate anything.
 */
export function draftQuerySets(skills: CandidateSkill[], binary: string): Array<{ skill: string; draft: true; queries: TriggerQuery[] }> {
  return skills.map((skill) => {
    const own = requests(skill);
    const queries: TriggerQuery[] = own.map((query, i) => ({ query, expected_skill: skill.name, split: i % 2 ? "test" : "train", note: "the Skill's own task (from the brief)" }));
    for (const other of skills) {
      if (other === skill) continue;
      const near = requests(other).at(-1);
      if (near) queries.push({ query: near, expected_skill: other.name, split: "test", note: `near miss: the task of ${other.name}` });
    }
    queries.push({ query: `In one sentence, what is the ${binary} command-line tool for?`, expected_skill: null, split: "test", note: "about the tool, not a task: no Skill" });
    return { skill: skill.name, draft: true as const, queries };
  });
}
