import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { sha256 } from "../../core/hash.js";
import { InterError } from "../../core/errors.js";
import { mapLimit } from "../../core/map-limit.js";
import type { Agent } from "../sandbox/agent-run.js";
import { modelRecord, type ModelRecord } from "../sandbox/agents.js";
import { presetNamed, type Preset } from "../sandbox/presets.js";
import { redactor } from "../../core/redact.js";
import { runSecrets } from "../sandbox/secrets.js";
import { detectIsolation, type Isolation } from "../sandbox/sandbox.js";
import { runTriggerAttempt } from "./attempt.js";
import { appendJournal, readJournal } from "./journal.js";
import { shadows } from "./detect.js";
import type { QuerySet } from "./queries.js";
import { skillsHash, type CandidateSkill } from "./skills.js";
import {
  confusion,
  gateFindings,
  judgedRuns,
  queryResult,
  runRecord,
  skillStats,
  type Confusion,
  type QueryResult,
  type SkillStats,
  type TriggerGate,
  type TriggerRun,
} from "./stats.js";

export interface TriggerResults {
  kind: "inter-trigger-results";
  schema_version: "1.0.0";
  inter_version: string;
  started_at: string;
  finished_at: string;
  /** `sha256` over every file of every Skill; `source` says where they came from. */
  candidate: { sha256: string; source: string; skills: Array<{ name: string; description: string }> };
  queries: { sha256: string; files: string[]; count: number; draft: boolean };
  agent: { name: string; identity: string; model?: ModelRecord };
  isolation: Isolation;
  settings: { runs: number; timeout_seconds: number; concurrency: number };
  /** Runs this invocation executed; the rest came from the cache (a warm re-run of nothing changed executes none). */
  executed: number;
  cached: number;
  results: QueryResult[];
  skills: SkillStats[];
  confusion: Confusion;
  summary: {
    queries: number;
    runs: number;
    judged: number;
    harness_errors: number;
    false_triggers: number;
    missed: number;
  };
  gate: { min_recall: number | null; max_false_triggers: number | null; met: boolean; findings: string[] };
}

/** results.json and `--json`'s data as they were before runs were tagged: each run without its `kind`. */
export function resultsRecord(r: TriggerResults) {
  return { ...r, results: r.results.map((q) => ({ ...q, runs: q.runs.map(runRecord) })) };
}

export interface TriggerRunOptions {
  runDir: string;
  skills: CandidateSkill[];
  source: string;
  set: QuerySet;
  preset: Preset["name"];
  agent: Agent;
  runs: number;
  timeoutSeconds: number;
  concurrency: number;
  gate: TriggerGate;
  fresh: boolean;
  /** Host paths the agent never sees (the folder with the query set and results). */
  hidden: string[];
  /**
   * The candidate's credential variables (its manifest's, a plan's beside it): a trigger run needs no API, so they
   * never reach the agent, and their values are redacted from everything the run writes.
   */
  credentials: string[];
  interVersion: string;
  signal: AbortSignal;
  onRun?(query: number, run: TriggerRun, cached: boolean): void;
}

/**
 * Runs every query `runs` times, each in its own sealed trigger attempt. A judged run is journaled under a key of the
 * candidate's Skills, the agent's identity, the isolation and the query text: unchanged, it is never run again (a
 * harness error always is). Changing an expected Skill re-runs nothing; changing a Skill re-runs everything.
 */
export async function runTriggers(options: TriggerRunOptions): Promise<TriggerResults> {
  const startedAt = new Date().toISOString();
  const isolation = await detectIsolation();
  // Sealed, the agent sees only its fresh project; unsealed, a Skills folder above the project would compete.
  const preset = presetNamed(options.preset);
  const found = shadows(
    preset,
    isolation.kind === "bubblewrap" ? undefined : join(options.runDir, "attempts", "q"),
    preset.configFiles(process.env).files.map((f) => f.host),
  );
  if (found.length) {
    throw new InterError(
      "TRIGGER_SHADOWED",
      `Skills other than the candidate's would be offered to ${options.preset}: ${found.join("; ")}.`,
      "Run where nothing else offers Skills: remove those Skills folders or settings from the agent's configuration (or run with bubblewrap, which shows the agent only its fresh project).",
      { found },
    );
  }
  const identity = await options.agent.identity();
  const candidate = skillsHash(options.skills);
  const journal = join(options.runDir, "journal.jsonl");
  // --fresh discards the journal (no cached run is used), never the results, reviews or proposals beside it.
  if (options.fresh) rmSync(journal, { force: true });
  mkdirSync(options.runDir, { recursive: true });
  const keyOf = (query: string, run: number) =>
    sha256(
      JSON.stringify({
        candidate,
        agent: identity,
        isolation: isolation.kind,
        query,
        run,
        timeout: options.timeoutSeconds,
      }),
    );
  const done = readJournal(journal);
  const secrets = runSecrets(options.credentials, {});
  const redact = redactor(secrets.all);
  const ctx = {
    runDir: options.runDir,
    preset: options.preset,
    agent: options.agent,
    skills: options.skills,
    isolation,
    timeoutMs: options.timeoutSeconds * 1000,
    credentials: options.credentials,
    secrets: secrets.api,
    redact,
    hidden: options.hidden,
    signal: options.signal,
  };
  const jobs = options.set.queries.flatMap((q, i) =>
    Array.from({ length: options.runs }, (_, r) => ({ i, q, run: r + 1 })),
  );
  let executed = 0;
  const runs = await mapLimit(jobs, options.concurrency, async (job) => {
    const key = keyOf(job.q.query, job.run);
    const cached = done.get(key);
    if (cached) {
      options.onRun?.(job.i, cached, true);
      return cached;
    }
    if (options.signal.aborted)
      throw new InterError(
        "INTERRUPTED",
        "Interrupted; the runs that finished are kept and are not run again.",
        "Run the same command to go on.",
      );
    executed++;
    const result = await runTriggerAttempt(ctx, `q${job.i + 1}`, job.q.query, job.run);
    switch (result.kind) {
      case "judged":
        appendJournal(journal, key, result);
        break;
      case "harness-error":
        // never journaled: a harness error always runs again
        break;
    }
    options.onRun?.(job.i, result, false);
    return result;
  });
  const names = options.skills.map((s) => s.name);
  const results = options.set.queries.map((q, i) =>
    queryResult(
      q,
      runs.filter((_, k) => jobs[k]!.i === i),
    ),
  );
  const stats = skillStats(results, names);
  const all = results.flatMap((q) => q.runs);
  const judged = judgedRuns(all).length;
  const findings = gateFindings(
    stats,
    options.gate,
    judged,
    new Set(options.set.queries.map((q) => q.expected_skill).filter((s): s is string => !!s)),
  );
  return {
    kind: "inter-trigger-results",
    schema_version: "1.0.0",
    inter_version: options.interVersion,
    started_at: startedAt,
    finished_at: new Date().toISOString(),
    candidate: {
      sha256: candidate,
      source: options.source,
      skills: options.skills.map((s) => ({ name: s.name, description: s.description })),
    },
    queries: {
      sha256: options.set.hash,
      files: options.set.files.map((f) => f.split("/").slice(-2).join("/")),
      count: options.set.queries.length,
      draft: options.set.draft,
    },
    agent: {
      name: options.agent.name,
      identity,
      ...modelRecord(
        options.agent,
        judgedRuns(all).map((r) => r.model),
      ),
    },
    isolation,
    settings: { runs: options.runs, timeout_seconds: options.timeoutSeconds, concurrency: options.concurrency },
    executed,
    cached: jobs.length - executed,
    results,
    skills: stats,
    confusion: confusion(results, names),
    summary: {
      queries: results.length,
      runs: all.length,
      judged,
      harness_errors: all.length - judged,
      false_triggers: stats.reduce((n, s) => n + s.false_positives, 0),
      missed: stats.reduce((n, s) => n + s.false_negatives, 0),
    },
    gate: {
      min_recall: options.gate.minRecall ?? null,
      max_false_triggers: options.gate.maxFalseTriggers ?? null,
      met: findings.length === 0,
      findings,
    },
  };
}
