import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Transcript } from "../sandbox/transcript.js";
import type { CheckResult } from "../run/checks.js";
import type { AttemptResult, EvalResults } from "../run/run-attempts.js";
import { notJudged, type GateResult } from "../results/gate.js";

/** results.json as read back: fields added after 1.0.0's first release may be missing from older files. */
export type StoredResults = Omit<EvalResults, "limits" | "proves" | "started_at" | "finished_at"> &
  Partial<Pick<EvalResults, "limits" | "proves" | "started_at" | "finished_at">> & { gate?: GateResult };

/** What needs a look in one attempt: a check that did not pass, or the harness error that left it unjudged. */
export type Finding = { scenario: string; repetition: number } & (
  { kind: "check"; check: CheckResult } | { kind: "harness-error"; message: string }
);

const RANK = { fail: 0, incomplete: 1, pass: 2 } as const;

/** Failed checks first, then incomplete ones, then harness errors; plan order within each group. */
export function findings(results: StoredResults): Finding[] {
  const out: Array<Finding & { rank: number }> = [];
  for (const a of results.attempts) {
    for (const c of a.checks)
      if (c.status !== "pass")
        out.push({ scenario: a.scenario, repetition: a.repetition, kind: "check", check: c, rank: RANK[c.status] });
    if (a.status === "error")
      out.push({
        scenario: a.scenario,
        repetition: a.repetition,
        kind: "harness-error",
        // Read back from a file: one written by another tool may lack the message.
        message: a.harness_error ?? "unknown harness error",
        rank: 3,
      });
  }
  return out.sort((x, y) => x.rank - y.rank).map(({ rank: _rank, ...f }) => f);
}

/** Attempts needing a look first: errors, failures, incomplete, then passes. */
export function attemptsByConcern(results: StoredResults): AttemptResult[] {
  const order = { error: 0, fail: 1, incomplete: 2, pass: 3 } as const;
  return [...results.attempts].sort((a, b) => order[a.status] - order[b.status]);
}

export function trimText(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}\n… (${text.length - max} more characters)`;
}

export function showValue(value: unknown, max = 400): string {
  return value === undefined ? "—" : trimText(JSON.stringify(value), max);
}

/** The transcript an attempt kept, if it is still on this machine (results may be read elsewhere). */
export function transcriptOf(attempt: AttemptResult, max = 8000): string | null {
  const file = attempt.agent.transcript;
  return file && existsSync(file) ? trimText(readFileSync(file, "utf8"), max) : null;
}

/** The agent's own account of an attempt in one format (presets: transcript.json beside the raw transcript). */
export function conversationOf(attempt: AttemptResult): Transcript | null {
  const file = join(attempt.workspace, "transcript.json");
  try {
    return existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as Transcript) : null;
  } catch {
    return null;
  }
}

export const pct = (r: number) => `${Math.round(r * 100)} %`;

export const short = (sha: string) => `sha256:${sha.slice(0, 12)}…`;

export const statusMark = { pass: "✔", fail: "✖", incomplete: "…", error: "!" } as const;

/**
 * The verdict the reports lead with: "not-judged" when every attempt was a harness error (whatever the gate), else the
 * gate's, when one was applied, else every attempt passed.
 */
export function verdictOf(results: StoredResults): "pass" | "fail" | "not-judged" {
  if (notJudged(results)) return "not-judged";
  return results.gate ? (results.gate.met ? "pass" : "fail") : results.verdict;
}

/** How the attempts were sealed, in words shown next to every verdict. */
export function isolationText(results: Pick<StoredResults, "isolation">): string {
  const isolation = results.isolation;
  if (!isolation) return "not recorded (results from before sealed attempts; evidence could have been forged)";
  return isolation.kind === "bubblewrap"
    ? `sealed (bubblewrap ${isolation.version})`
    : `none — evidence could be forged (${isolation.reason})`;
}
