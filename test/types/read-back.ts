// Types of what tests read back (a file inter wrote, a prompt a scripted server was sent, a CLI's JSON answer) where
// src exports no type for it: only the fields the tests read, so a test that reads more says so here.
import type { TriggerResults } from "../../src/evaluation/triggers/run.js";
import type { JudgedTriggerRun, QueryResult } from "../../src/evaluation/triggers/stats.js";
import type { GroupQuestion, SkillQuestion } from "../../src/stages/design/overlay.js";

/**
 * The user message of a design question as a scripted model reads it (src/stages/design/suggest.ts's groupPrompt and
 * skillPrompt). One of the two, by the request's schema name: `command_names` asks about a group, `agent_skill` about
 * a Skill.
 */
export interface GroupPrompt {
  group: string;
  operations: GroupQuestion["operations"];
}
export interface SkillPrompt {
  task: SkillQuestion["task"];
  commands: Array<{ command: string; does: string }>;
}
export type DesignPrompt = GroupPrompt & SkillPrompt;

/** The user message of a trigger-query drafting request (src/evaluation/triggers/draft-model.ts). */
export interface TriggerDraftPrompt {
  tool: string;
  skill: { name: string; text: string };
  others: Array<{ name: string; description: string }>;
}

/**
 * A run as .inter-triggers/results.json holds it (src/evaluation/triggers/run.ts's resultsRecord): without `kind`,
 * `harness_error` only on a harness error.
 */
export type TriggerRunRecord = Omit<JudgedTriggerRun, "kind" | "loaded" | "other"> & {
  loaded: string[];
  other: string[];
  harness_error?: string;
};

/** .inter-triggers/results.json, and `inter triggers --json`'s data. */
export type TriggerResultsFile = Omit<TriggerResults, "results"> & {
  results: Array<Omit<QueryResult, "runs"> & { runs: TriggerRunRecord[] }>;
};
