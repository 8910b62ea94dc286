import type { TriggerQuery } from "./queries.js";

/** A run the agent finished: which of the candidate's Skills it loaded. */
export interface JudgedTriggerRun {
  kind: "judged";
  run: number;
  loaded: string[];
  /** Skills outside the candidate's that it loaded (its built-in ones): shown, never counted. */
  other: string[];
  /** The model that answered, where the agent's stream says it. */
  model?: string;
  duration_ms: number;
}

/** A run that taught nothing: the harness or the agent broke. Nothing loaded, as results.json has always said. */
export interface HarnessErrorTriggerRun {
  kind: "harness-error";
  run: number;
  loaded: [];
  other: [];
  harness_error: string;
  duration_ms: number;
}

/**
 * One run of one query, judged or a harness error. `kind` is how the code tells them apart; results.json keeps the
 * form it had before the tag (no `kind`, `harness_error` only on a harness error): see resultsRecord.
 */
export type TriggerRun = JudgedTriggerRun | HarnessErrorTriggerRun;

/** The judged runs: the only ones any statistic counts. */
export const judgedRuns = (runs: TriggerRun[]): JudgedTriggerRun[] =>
  runs.filter((r): r is JudgedTriggerRun => r.kind === "judged");

/** The harness errors: runs that taught nothing, shown apart from misses. */
export const harnessErrorRuns = (runs: TriggerRun[]): HarnessErrorTriggerRun[] =>
  runs.filter((r): r is HarnessErrorTriggerRun => r.kind === "harness-error");

/** A run as results.json and the journal of an older inter hold it: without `kind`. */
export function runRecord(run: TriggerRun): Omit<TriggerRun, "kind"> {
  const { kind: _kind, ...record } = run;
  return record;
}

export interface QueryResult extends TriggerQuery {
  runs: TriggerRun[];
  /** Judged runs (no harness error). */
  judged: number;
  /** Of the judged runs, the share that loaded the expected Skill (null expected: that loaded none of the candidate's). */
  trigger_rate: number | null;
  /** Per Skill, in how many judged runs it loaded. */
  loaded: Record<string, number>;
  /**
   * Judged runs that loaded a candidate Skill the query does not expect — beside the expected one or instead of it: a
   * false trigger of that Skill, visible per query even where the trigger rate is 1.
   */
  wrong_loads: number;
}

export interface SkillStats {
  skill: string;
  /** Judged runs whose query expects this Skill and that loaded it. */
  true_positives: number;
  /** Judged runs that loaded it for a query expecting another Skill or none: it stole the query. */
  false_positives: number;
  /** Judged runs whose query expects it and that did not load it. */
  false_negatives: number;
  true_negatives: number;
  precision: number | null;
  recall: number | null;
  accuracy: number | null;
}

/**
 * Who took which query, over judged runs: rows are the expected Skill (or `(none)`), columns what loaded — each
 * loaded candidate Skill, or `(none)` when the run loaded none of them. A run that loaded two Skills counts in both.
 */
export interface Confusion {
  labels: string[];
  counts: number[][];
}

export const NONE = "(none)";
const ratio = (a: number, b: number) => (b ? a / b : null);

export function queryResult(query: TriggerQuery, runs: TriggerRun[]): QueryResult {
  const judged = judgedRuns(runs);
  const loaded: Record<string, number> = {};
  for (const r of judged) for (const s of r.loaded) loaded[s] = (loaded[s] ?? 0) + 1;
  const hits = judged.filter((r) =>
    query.expected_skill === null ? r.loaded.length === 0 : r.loaded.includes(query.expected_skill),
  ).length;
  const wrong = judged.filter((r) => r.loaded.some((s) => s !== query.expected_skill)).length;
  return {
    ...query,
    runs,
    judged: judged.length,
    trigger_rate: ratio(hits, judged.length),
    loaded,
    wrong_loads: wrong,
  };
}

/** Per Skill counts over every judged run; a run is one trial per Skill (loaded or not, expected or not). */
export function skillStats(results: QueryResult[], skills: string[]): SkillStats[] {
  return skills.map((skill) => {
    let tp = 0;
    let fp = 0;
    let fn = 0;
    let tn = 0;
    for (const q of results) {
      for (const r of judgedRuns(q.runs)) {
        const expected = q.expected_skill === skill;
        const loaded = r.loaded.includes(skill);
        if (expected && loaded) tp++;
        else if (expected) fn++;
        else if (loaded) fp++;
        else tn++;
      }
    }
    return {
      skill,
      true_positives: tp,
      false_positives: fp,
      false_negatives: fn,
      true_negatives: tn,
      precision: ratio(tp, tp + fp),
      recall: ratio(tp, tp + fn),
      accuracy: ratio(tp + tn, tp + fp + fn + tn),
    };
  });
}

export function confusion(results: QueryResult[], skills: string[]): Confusion {
  const labels = [...skills, NONE];
  const counts = labels.map(() => labels.map(() => 0));
  for (const q of results) {
    const row = labels.indexOf(q.expected_skill ?? NONE);
    if (row < 0) continue;
    for (const r of judgedRuns(q.runs)) {
      const took = r.loaded.filter((s) => skills.includes(s));
      for (const s of took.length ? took : [NONE]) counts[row]![labels.indexOf(s)]!++;
    }
  }
  return { labels, counts };
}

export interface TriggerGate {
  /** Each Skill's recall must reach this (0..1). */
  minRecall?: number;
  /** At most this many judged runs may load a Skill the query did not expect (over all Skills). */
  maxFalseTriggers?: number;
}

/**
 * Whether the gate holds, and why not: each finding names the Skill or the count. A Skill that some query expects but
 * that no judged run measured (every run of its queries a harness error) fails `minRecall`: a gate never passes on
 * what was not judged.
 */
export function gateFindings(
  stats: SkillStats[],
  gate: TriggerGate,
  judged: number,
  expected: ReadonlySet<string> = new Set(),
): string[] {
  const findings: string[] = [];
  if (!judged) return ["no run was judged: every run was a harness error"];
  if (gate.minRecall !== undefined) {
    for (const s of stats) {
      if (s.recall !== null && s.recall < gate.minRecall)
        findings.push(`${s.skill}: recall ${s.recall.toFixed(2)} < ${gate.minRecall}`);
      else if (s.recall === null && expected.has(s.skill))
        findings.push(
          `${s.skill}: not judged (every run of the queries expecting it was a harness error), so recall cannot reach ${gate.minRecall}`,
        );
    }
  }
  const falseTriggers = stats.reduce((n, s) => n + s.false_positives, 0);
  if (gate.maxFalseTriggers !== undefined && falseTriggers > gate.maxFalseTriggers)
    findings.push(`${falseTriggers} false trigger${falseTriggers === 1 ? "" : "s"} > ${gate.maxFalseTriggers}`);
  return findings;
}
