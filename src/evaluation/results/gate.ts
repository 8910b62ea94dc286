import { InterError } from "../../core/errors.js";
import { count } from "../../core/plural.js";
import type { EvalResults, GateResult } from "./types.js";

export type { GateResult } from "./types.js";

export interface GateOptions {
  /** Each scenario's pass rate must reach this (0..1). */
  minPassRate: number;
  /** Leave incomplete attempts out of the rate instead of counting them as not passed. */
  allowIncomplete: boolean;
  /** Fail the gate when the attempts ran unsealed (no bubblewrap): their evidence could have been forged. */
  requireSealed?: boolean;
  /** Fail the gate (and each attempt) on a mutating call no observation of its scenario matched. */
  forbidSideEffects?: boolean;
}

export const DEFAULT_GATE: GateOptions = { minPassRate: 1, allowIncomplete: false };

const percent = (r: number) => `${Math.round(r * 1000) / 10} %`;

/**
 * Every attempt was a harness error (the agent would not start, the candidate would not install…): the run established
 * nothing about the candidate, so it is *not judged* — neither passed nor failed. Read from the attempts alone, so every
 * report of the same results says it, whatever gate is applied.
 */
export function notJudged(results: Pick<EvalResults, "attempts">): boolean {
  return results.attempts.length > 0 && results.attempts.every((a) => a.status === "error");
}

/** The words every report leads with for results that were not judged. */
export function notJudgedText(results: Pick<EvalResults, "attempts">): string {
  const n = results.attempts.length;
  return `every attempt was a harness error (${n === 1 ? "the only attempt" : `all ${n}`}): the harness or the agent broke, not the candidate, so nothing was established about it`;
}

/**
 * The CI gate, per scenario. Harness errors always count against a scenario (nothing was established): a scenario
 * whose every attempt was a harness error misses the gate whatever the bar, as not judged; and a scenario whose every
 * attempt was incomplete misses it even when incomplete attempts are allowed: no evidence is not a pass.
 */
export function applyGate(
  results: Pick<EvalResults, "scenarios" | "attempts" | "isolation">,
  options: GateOptions,
): GateResult {
  const missed: GateResult["missed"] = [];
  if (options.requireSealed && results.isolation?.kind !== "bubblewrap") {
    const why = results.isolation?.kind === "none" ? results.isolation.reason : "isolation not recorded";
    missed.push({
      scenario: "*",
      rate: null,
      reason: `the attempts ran unsealed (${why}), so their evidence could have been forged`,
    });
  }
  for (const scenario of results.scenarios) {
    const attempts = results.attempts.filter((a) => a.scenario === scenario.id);
    const changes = attempts.reduce((n, a) => n + (a.side_effects?.length ?? 0), 0);
    if (options.forbidSideEffects && changes) {
      missed.push({
        scenario: scenario.id,
        rate: null,
        reason: `${count(changes, "mutating call")} no observation matches (unobserved side effects are forbidden)`,
      });
      continue;
    }
    if (attempts.length && attempts.every((a) => a.status === "error")) {
      missed.push({
        scenario: scenario.id,
        rate: null,
        reason: `not judged: ${attempts.length === 1 ? "its only attempt was a harness error" : `all ${count(attempts.length, "attempt")} were harness errors`}`,
      });
      continue;
    }
    const judged = options.allowIncomplete ? attempts.filter((a) => a.status !== "incomplete") : attempts;
    if (!judged.length) {
      missed.push({
        scenario: scenario.id,
        rate: null,
        reason: attempts.length
          ? `${attempts.length === 1 ? "its only attempt was" : `all ${count(attempts.length, "attempt")} were`} incomplete; nothing was established`
          : "no attempts ran",
      });
      continue;
    }
    const rate = judged.filter((a) => a.status === "pass").length / judged.length;
    // Rates are ratios of small integers; the epsilon keeps 2/3 ≥ 0.6667 from failing on rounding.
    if (rate + 1e-9 < options.minPassRate) {
      const left = attempts.length - judged.length;
      missed.push({
        scenario: scenario.id,
        rate,
        reason: `pass rate ${percent(rate)} (${judged.filter((a) => a.status === "pass").length}/${judged.length}${left ? `, ${left} incomplete left out` : ""}) is below ${percent(options.minPassRate)}`,
      });
    }
  }
  return {
    min_pass_rate: options.minPassRate,
    allow_incomplete: options.allowIncomplete,
    ...(options.requireSealed ? { require_sealed: true } : {}),
    ...(options.forbidSideEffects ? { forbid_side_effects: true } : {}),
    met: missed.length === 0,
    missed,
  };
}

/**
 * The error for results that missed the gate: EVAL_NOT_JUDGED when every attempt was a harness error (nothing says
 * whether the candidate works; the harness errors are in the message), else EVAL_FAILED naming each scenario that
 * missed the gate and why. `after` adds what the caller knows (counts, files). Both exit 1.
 */
export function gateError(
  results: Pick<EvalResults, "attempts"> & { gate: GateResult },
  after: string,
  suggestion: string,
  details: Record<string, unknown>,
): InterError {
  const { gate } = results;
  if (notJudged(results)) {
    const reasons = [...new Set(results.attempts.map((a) => a.harness_error ?? "unknown harness error"))];
    const clip = (r: string) => (r.length > 300 ? `${r.slice(0, 300)}…` : r);
    const shown =
      reasons.slice(0, 3).map(clip).join("; ") +
      (reasons.length > 3 ? `; and ${count(reasons.length - 3, "other")}` : "");
    return new InterError(
      "EVAL_NOT_JUDGED",
      `Not judged: ${notJudgedText(results)}. ${reasons.length === 1 ? "Harness error" : "Harness errors"}: ${shown}.${after ? ` ${after}` : ""}`,
      "Fix what the harness reported (an agent that is not installed or would not start, a candidate that would not install, a missing reference solution) and run again; no gate setting passes a run that was not judged.",
      { gate, not_judged: true, harness_errors: reasons, ...details },
    );
  }
  const missed = gate.missed.map((m) => `${m.scenario} (${m.reason})`).join("; ");
  return new InterError("EVAL_FAILED", `The gate was not met: ${missed}.${after ? ` ${after}` : ""}`, suggestion, {
    gate,
    ...details,
  });
}

function gateRule(gate: GateResult): string {
  return `every scenario ≥ ${percent(gate.min_pass_rate)}${gate.allow_incomplete ? ", incomplete attempts left out" : ", incomplete attempts count against"}${gate.require_sealed ? ", sealed attempts required" : ""}${gate.forbid_side_effects ? ", no unobserved side effects" : ""}`;
}

/** One line for logs and summaries; `brief` names the scenarios that missed without their reasons. */
export function gateLine(gate: GateResult, brief = false): string {
  const rule = gateRule(gate);
  if (gate.met) return `Gate met: ${rule}.`;
  return brief
    ? `Gate not met (${rule}): missed by ${gate.missed.map((m) => m.scenario).join(", ")}.`
    : `Gate not met (${rule}): ${gate.missed.map((m) => `${m.scenario} — ${m.reason}`).join("; ")}.`;
}
