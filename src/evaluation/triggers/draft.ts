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

const lowerFirst = (text: string) => (/^[A-Z][a-z]/.test(text) ? text[0]!.toLowerCase() + text.slice(1) : text);
const sentence = (text: string) => (/[.!?]$/.test(text) ? text : `${text}.`);

/** The brief's first sentences (up to two), so a request stays the length a person types. */
function opening(text: string): string {
  const sentences =
    text
      .replace(/\s+/g, " ")
      .trim()
      .match(/[^.!?]+[.!?]+(?=\s|$)|[^.!?]+$/g) ?? [];
  return sentences
    .slice(0, 2)
    .map((s) => s.trim())
    .join(" ");
}

/** A third-person subject the brief's prose opens with ("A person", "An office manager", "The user"). */
const SUBJECT = /^(?:a|an|the|some|one)\s+(?:[\w-]+\s+){0,2}?/i;
const FIRST_PERSON: Record<string, string> = {
  wants: "want",
  needs: "need",
  asks: "ask",
  has: "have",
  is: "am",
  would: "would",
  plans: "plan",
  names: "name",
  gives: "give",
  knows: "know",
  tries: "try",
  likes: "like",
};

/**
 * The brief's situation as the person in it would say it: "A person needs a room …: they give the date …" →
 * "I need a room …: I give the date …"; "A person's meeting is off." → "My meeting is off.". Undefined when the prose
 * does not open with a third-person subject this can turn (it is then no request).
 */
export function firstPerson(prose: string): string | undefined {
  let text = opening(prose);
  const owned = /^(?:(?:a|an|the|some|one)\s+)?(?:[\w-]+\s+){0,2}?[\w-]+['’]s\s+/i.exec(text);
  const subject = new RegExp(`${SUBJECT.source}(${Object.keys(FIRST_PERSON).join("|")})\\b`, "i").exec(text);
  if (subject) text = `I ${FIRST_PERSON[subject[1]!.toLowerCase()]}${text.slice(subject[0].length)}`;
  else if (owned && owned.index === 0) text = `My ${text.slice(owned[0].length)}`;
  else return undefined;
  text = text
    .replace(
      /\b[Tt]hey\s+(are|were|have)\b/g,
      (_, v: string) => `I ${v === "are" ? "am" : v === "were" ? "was" : "have"}`,
    )
    .replace(/\b[Tt]hey\b/g, "I")
    .replace(/\b[Tt]heir\b/g, "my")
    // "them" is more often what the person acts on ("wants them registered") than the person: only "themselves" turns.
    .replace(/\b[Tt]hemselves\b/g, "myself")
    .replace(/\b(he or she|she or he)\b/gi, "I")
    // "I name a meeting and wants …": the verbs the subject goes on with agree with "I" too.
    .replace(
      new RegExp(`\\b(and|then|but)\\s+(${Object.keys(FIRST_PERSON).join("|")})\\b`, "g"),
      (_, joint: string, verb: string) => `${joint} ${FIRST_PERSON[verb]}`,
    );
  return sentence(text);
}

/** The task's title as a request: "Cancel a booking" → "Please cancel a booking." / "Can you cancel a booking for me?". */
const titleRequests = (title: string) => {
  const task = lowerFirst(title.replace(/[.!?]+$/, ""));
  return { plain: `Please ${task}.`, ask: `Can you ${task} for me?` };
};

/** What a person would type for a Skill's task, in their voice: the title as a request, and the brief's situation in the first person. */
function requests(skill: CandidateSkill): { title?: string; situation?: string; ask?: string } {
  const text = skill.files["SKILL.md"] ?? "";
  const name = title(text);
  const when = section(text, /when to use/i);
  const asked = name ? titleRequests(name) : undefined;
  return {
    ...(asked ? { title: asked.plain, ask: asked.ask } : {}),
    ...(when && firstPerson(when) ? { situation: firstPerson(when)! } : {}),
  };
}

/**
 * A draft query set per Skill, from what the candidate carries of its brief, in a user's voice (first-person
 * requests, not the brief's third-person prose): the Skill's own task (its title as a request, its "When to use"
 * prose in the first person) should trigger it; each neighbouring Skill's task is a near miss that should trigger that
 * neighbour instead; a question about the tool itself should trigger none. Marked draft: a person reviews and
 * rewrites them in their users' words (`inter eval review-triggers`) before they gate anything.
 */
export function draftQuerySets(
  skills: CandidateSkill[],
  binary: string,
): Array<{ skill: string; draft: true; queries: TriggerQuery[] }> {
  return skills.map((skill) => {
    const own = requests(skill);
    const mine = [own.title, own.situation ?? own.ask].filter((q): q is string => Boolean(q));
    const queries: TriggerQuery[] = mine.map((query, i) => ({
      query,
      expected_skill: skill.name,
      split: i % 2 ? "test" : "train",
      note: "the Skill's own task, drafted from the brief in a user's voice",
    }));
    for (const other of skills) {
      if (other === skill) continue;
      const theirs = requests(other);
      const near = theirs.situation ?? theirs.ask;
      if (near)
        queries.push({
          query: near,
          expected_skill: other.name,
          split: "test",
          note: `near miss: the task of ${other.name}`,
        });
    }
    queries.push({
      query: `In one sentence, what is the ${binary} command-line tool for?`,
      expected_skill: null,
      split: "test",
      note: "about the tool, not a task: no Skill",
    });
    return { skill: skill.name, draft: true as const, queries };
  });
}
