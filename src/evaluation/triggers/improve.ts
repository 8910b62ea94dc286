import { withFrontMatterField } from "../../core/front-matter.js";
import type { ModelClient } from "../../model/client.js";
import { InterError } from "../../core/errors.js";
import type { TriggerResults } from "./run.js";
import type { CandidateSkill } from "./skills.js";
import { judgedRuns, type QueryResult } from "./stats.js";

/** How well a Skill's triggering went on one split: accuracy over the judged runs of that split's queries. */
export function splitScore(
  results: TriggerResults,
  skill: string,
  split: "train" | "test",
): { accuracy: number | null; runs: number } {
  let right = 0;
  let runs = 0;
  for (const q of results.results) {
    if ((q.split ?? "test") !== split) continue;
    for (const r of judgedRuns(q.runs)) {
      runs++;
      if ((q.expected_skill === skill) === r.loaded.includes(skill)) right++;
    }
  }
  return { accuracy: runs ? right / runs : null, runs };
}

/**
 * The description in a SKILL.md front matter replaced (as a JSON string, valid YAML), a block scalar whole; nothing
 * else changes.
 */
export function withDescription(skill: CandidateSkill, description: string): CandidateSkill {
  const text = skill.files["SKILL.md"] ?? "";
  const next = withFrontMatterField(text, "description", description)?.text ?? text;
  return { ...skill, description, files: { ...skill.files, "SKILL.md": next } };
}

/** What the proposer is shown: the train split's queries only, with what the agent did; never a held-out query. */
function trainView(results: QueryResult[], skill: string) {
  return results
    .filter((q) => q.split === "train" && (q.expected_skill === skill || q.loaded[skill]))
    .map((q) => ({
      query: q.query,
      should_load_this_skill: q.expected_skill === skill,
      expected_skill: q.expected_skill,
      runs: q.judged,
      loaded: q.loaded,
    }));
}

const ANSWER = {
  type: "object",
  additionalProperties: false,
  required: ["description", "reasoning"],
  properties: {
    description: { type: "string", minLength: 20, maxLength: 1024 },
    reasoning: { type: "string", maxLength: 4000 },
  },
};

export interface Iteration {
  iteration: number;
  description: string;
  reasoning: string;
  train: number | null;
  test: number | null;
}

export interface Proposal {
  skill: string;
  current: { description: string; train: number | null; test: number | null };
  iterations: Iteration[];
  /** The description with the best held-out (test) score; the current one when no proposal beat it. */
  best: { description: string; test: number | null; iteration: number | null };
  improved: boolean;
}

/**
 * The description-improvement loop: the proposer (the design model seam, src/model) sees the Skill, its siblings and
 * the train split's results, proposes a description; the queries run again with it; the winner is chosen by the
 * held-out test split alone, whose queries and results the proposer never sees. Nothing is applied: the caller writes
 * the proposal for a person to apply.
 */
export async function improveDescription(options: {
  skill: string;
  skills: CandidateSkill[];
  baseline: TriggerResults;
  iterations: number;
  client: ModelClient;
  rerun(skills: CandidateSkill[]): Promise<TriggerResults>;
  signal?: AbortSignal;
}): Promise<Proposal> {
  const target = options.skills.find((s) => s.name === options.skill);
  if (!target)
    throw new InterError(
      "USAGE_ERROR",
      `--improve ${options.skill}: the candidate has no such Skill.`,
      `Its Skills: ${options.skills.map((s) => s.name).join(", ")}.`,
      { skill: options.skill },
    );
  const base = {
    train: splitScore(options.baseline, options.skill, "train"),
    test: splitScore(options.baseline, options.skill, "test"),
  };
  if (!base.train.runs)
    throw new InterError(
      "TRIGGER_QUERIES_INVALID",
      `--improve ${options.skill}: no judged run of a train-split query; the proposer would have nothing to learn from.`,
      'Mark some queries "split": "train" (the rest stay held out as "test").',
      { skill: options.skill },
    );
  if (!base.test.runs)
    throw new InterError(
      "TRIGGER_QUERIES_INVALID",
      `--improve ${options.skill}: no judged run of a test-split query; nothing could choose the winner.`,
      'Keep some queries "split": "test" (or without a split): the winner is chosen on them alone.',
      { skill: options.skill },
    );
  const iterations: Iteration[] = [];
  let best: Proposal["best"] = { description: target.description, test: base.test.accuracy, iteration: null };
  let latest = options.baseline;
  let description = target.description;
  for (let i = 1; i <= options.iterations; i++) {
    const answer = await options.client.complete(
      {
        schemaName: "skill_description",
        schema: ANSWER,
        system:
          "You improve the description of an Agent Skill: the one line a coding agent reads to decide whether to load the Skill for a request. Say what the Skill is for and when to use it, and name the neighbouring Skills' tasks it is not for. Answer with the new description and your reasoning.",
        user: JSON.stringify({
          skill: options.skill,
          current_description: description,
          skill_body: (target.files["SKILL.md"] ?? "").replace(/^---[\s\S]*?---\n/, "").slice(0, 4000),
          sibling_skills: options.skills
            .filter((s) => s.name !== options.skill)
            .map((s) => ({ name: s.name, description: s.description })),
          results: trainView(latest.results, options.skill),
        }),
      },
      options.signal,
    );
    const value = answer.value as { description: string; reasoning: string };
    description = value.description.replace(/\s+/g, " ").trim();
    latest = await options.rerun(
      options.skills.map((s) => (s.name === options.skill ? withDescription(s, description) : s)),
    );
    const train = splitScore(latest, options.skill, "train").accuracy;
    const test = splitScore(latest, options.skill, "test").accuracy;
    iterations.push({ iteration: i, description, reasoning: value.reasoning, train, test });
    if (test !== null && (best.test === null || test > best.test)) best = { description, test, iteration: i };
    if (train === 1 && test === 1) break;
  }
  return {
    skill: options.skill,
    current: { description: target.description, train: base.train.accuracy, test: base.test.accuracy },
    iterations,
    best,
    improved: best.iteration !== null,
  };
}

/** The proposal as a change a person applies: a patch of the Skill's SKILL.md front matter, never applied by inter. */
export function proposalPatch(skill: CandidateSkill, description: string, path: string): string {
  const text = skill.files["SKILL.md"] ?? "";
  const edited = withFrontMatterField(text, "description", description);
  if (!edited) return "";
  const lines = text.split("\n");
  const [at, end] = edited.lines;
  const next = edited.text.split("\n")[at]!;
  // One line of context each side (the front matter's fences or fields), so `git apply` takes it as it is.
  const before = at > 0 ? [` ${lines[at - 1]}`] : [];
  const after = end < lines.length ? [` ${lines[end]}`] : [];
  const start = at + 1 - before.length;
  const removed = lines.slice(at, end);
  return [
    `--- a/${path}`,
    `+++ b/${path}`,
    `@@ -${start},${before.length + removed.length + after.length} +${start},${before.length + 1 + after.length} @@`,
    ...before,
    ...removed.map((l) => `-${l}`),
    `+${next}`,
    ...after,
    "",
  ].join("\n");
}
