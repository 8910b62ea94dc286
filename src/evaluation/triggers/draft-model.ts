import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { writeFileAtomic } from "../../core/atomic.js";
import { canonicalJson, sha256 } from "../../core/hash.js";
import type { ModelClient } from "../../model/client.js";
import type { TriggerQuery } from "./queries.js";
import type { CandidateSkill } from "./skills.js";

/**
 * Trigger query drafts by the design model (`design.model`): per Skill, what a user would type to get its task done
 * and near misses (requests another Skill, or none, answers). Each answer is cached under the sha256 of what was asked
 * (the prompt version, the model, the Skill's SKILL.md and its neighbours' names and descriptions), so drafting again
 * asks nothing; the sets are marked draft like the templates', for a person to review.
 */

/** Bumped whenever the prompt changes what it asks: every cached answer is then stale. */
const PROMPT_VERSION = "triggers-1";

const SYSTEM = `You write test queries for an Agent Skill: messages a real user would type to an AI coding agent, in the first person, in their own words (short, concrete, with plausible names, ids, dates), never descriptions of a user.
Answer:
- requests: 4 different messages that need exactly this Skill's task done.
- near_misses: 3 messages that sound close but need another Skill listed (name it in "skill") or none of them (skill: null).
Never include credentials, keys or tokens. Answer only through the schema.`;

const SCHEMA = {
  type: "object",
  additionalProperties: false,
  required: ["requests", "near_misses"],
  properties: {
    requests: { type: "array", items: { type: "string" } },
    near_misses: {
      type: "array",
      items: {
        type: "object",
        additionalProperties: false,
        required: ["query", "skill"],
        properties: { query: { type: "string" }, skill: { type: ["string", "null"] } },
      },
    },
  },
} as const;

interface Answer {
  requests: string[];
  near_misses: Array<{ query: string; skill: string | null }>;
}

const clean = (text: string) => text.replace(/\s+/g, " ").trim().slice(0, 500);

/**
 * One draft set per Skill in `only` (default: every one) from the model, each answer read from `cacheDir` when it was
 * asked before; every Skill is a neighbour in each question.
 */
export async function modelDraftSets(
  skills: CandidateSkill[],
  binary: string,
  options: { client: ModelClient; model: string; cacheDir: string; only?: Set<string>; signal?: AbortSignal },
): Promise<{ sets: Array<{ skill: string; draft: true; queries: TriggerQuery[] }>; asked: number; cached: number }> {
  let asked = 0;
  let cached = 0;
  const names = new Set(skills.map((s) => s.name));
  const sets = [];
  for (const skill of skills) {
    if (options.only && !options.only.has(skill.name)) continue;
    const question = {
      tool: binary,
      skill: { name: skill.name, text: (skill.files["SKILL.md"] ?? "").slice(0, 6000) },
      others: skills
        .filter((s) => s !== skill)
        .map((s) => ({ name: s.name, description: s.description.slice(0, 600) })),
    };
    const key = sha256(canonicalJson({ promptVersion: PROMPT_VERSION, model: options.model, question }));
    const file = join(options.cacheDir, `${key}.json`);
    let answer: Answer;
    if (existsSync(file)) {
      answer = JSON.parse(readFileSync(file, "utf8")) as Answer;
      cached++;
    } else {
      answer = (
        await options.client.complete(
          { system: SYSTEM, user: JSON.stringify(question, null, 1), schemaName: "trigger_queries", schema: SCHEMA },
          options.signal,
        )
      ).value as Answer;
      asked++;
      mkdirSync(options.cacheDir, { recursive: true });
      writeFileAtomic(file, `${JSON.stringify(answer)}\n`);
    }
    const note = `drafted by ${options.model}: rewrite in your users' words if it is not how they talk`;
    const queries: TriggerQuery[] = [
      ...answer.requests
        .map(clean)
        .filter(Boolean)
        .slice(0, 8)
        .map((query, i) => ({
          query,
          expected_skill: skill.name,
          split: (i % 2 ? "test" : "train") as "test" | "train",
          note,
        })),
      // A near miss naming a Skill the candidate lacks, or this one, expects none: it is still not this Skill's task.
      ...answer.near_misses
        .filter((n) => clean(n.query))
        .slice(0, 8)
        .map((n) => ({
          query: clean(n.query),
          expected_skill: n.skill && names.has(n.skill) && n.skill !== skill.name ? n.skill : null,
          split: "test" as const,
          note: `near miss, ${note}`,
        })),
      {
        query: `In one sentence, what is the ${binary} command-line tool for?`,
        expected_skill: null,
        split: "test" as const,
        note: "about the tool, not a task: no Skill",
      },
    ];
    sets.push({ skill: skill.name, draft: true as const, queries });
  }
  return { sets, asked, cached };
}
