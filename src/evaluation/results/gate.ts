import { InterError } from "../../core/errors.js";
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
 * The CI gate, per scenario. Harness errors always count against a scenario (nothing was established), and a scenario
 * whose every attempt was incomplete misses the gate even when incomplete attempts are allowed: no evidence is not a pass.
 */
export function applyGate(results: Pick<EvalResults, "scenarios" | "attempts" | "isolation">, options: GateOptions): GateResult {
  const missed: GateResult["missed"] = [];
  if (options.requireSealed && results.isolation?.kind !== "bubblewrap") {
    const why = results.isolation?.kind === "none" ? results.isolation.reason : "isolation not recorded";
    missed.push({ scenario: "*", rate: null, reason: `the attempts ran unsealed (${why}), so their evidence could have been forged` });
  }
  for (const scenario of results.scenarios) {
    const attempts = results.attempts.filter((a) => a.scenario === scenario.id);
    const changes = attempts.reduce((n, a) => n + (a.side_effects?.length ?? 0), 0);
    if (options.forbidSideEffects && changes) {
      missed.push({ scenario: scenario.id, rate: null, reason: `${changes} mutating call${changes > 1 ? "s" : ""} no observation matches (unobserved side effects are forbidden)` });
      continue;
    }
    const judged = options.allowIncomplete ? attempts.filter((a) => a.status !== "incomplete") : attempts;
    if (!judged.length) {
      missed.push({ scenario: scenario.id, rate: null, reason: attempts.length ? `all ${attempts.length} attempts were incomplete; nothing was established` : "no attempts ran" });
      continue;
    }
    const rate = judged.filter((a) => a.status === "pass").length / judged.length;
    // Rates are ratios of small integers; the epsilon keeps 2/3 ≥ 0.6667 from failing on rounding.
    if (rate + 1e-9 < options.minPassRate) {
      const left = attempts.length - judged.length;
      missed.push({ scenario: scenario.id, rate, reason: `pass rate ${percent(rate)} (${judged.filter((a) => a.status === "pass").length}/${judged.length}${left ? `, ${left} incomplete left out` : ""}) is below ${percent(options.minPassRate)}` });
    }
  }
  return { min_pass_rate: options.minPassRate, allow_incomplete: options.allowIncomplete, ...(options.requireSealed ? { require_sealed: true } : {}), ...(options.forbidSideEffects ? { forbid_side_effects: true } : {}), met: missed.length === 0, missed };
}

/** EVAL_FAILED naming each scenario that missed the gate and why; `after` adds what the caller knows (counts, files). */
export function gateError(gate: GateResult, after: string, suggestion: string, details: Record<string, unknown>): InterError {
  const missed = gate.missed.map((m) => `${m.scenario} (${m.reason})`).join("; ");
  return new InterError("EVAL_FAILED", `The gate was not met: ${missed}.${after ? ` ${after}` : ""}`, suggestion, { gate, ...details });
}

export function gateRule(gate: GateResult): string {
  return `every scenario ≥ ${percent(gate.min_pass_rate)}${gate.allow_incomplete ? ", incomplete attempts left out" : ", incomplete attempts count against"}${gate.require_sealed ? ", sealed attempts required" : ""}${gate.forbid_side_effects ? ", no unobserved side effects" : ""}`;
}

/** One line for logs and summaries; `brief` names the scenarios that missed without their reasons. */
export function gateLine(gate: GateResult, brief = false): string {
  const rule = gateRule(gate);
  if (gate.met) return `Gate met: ${rule}.`;
  return brief ? `Gate not met (${rule}): missed by ${gate.missed.map((m) => m.scenario).join(", ")}.` : `Gate not met (${rule}): ${gate.missed.map((m) => `${m.scenario} — ${m.reason}`).join("; ")}.`;
}
