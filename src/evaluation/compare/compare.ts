import type { EvalResults, ScenarioSummary } from "../run/run-attempts.js";
import { fisherExact } from "./stats.js";

export interface Side extends Omit<ScenarioSummary, "id"> {
  mean_duration_ms: number;
  mean_invocations: number;
  /** Mean tokens (in + out) per attempt, as the agents reported them; null when no attempt reported any. */
  mean_tokens: number | null;
}

export interface CheckComparison {
  id: string;
  a_rate: number;
  b_rate: number;
  /** False when the check passed in every attempt of both, or failed in every attempt of both. */
  discriminating: boolean;
}

export interface JudgedScenario {
  id: string;
  /** The candidate the judge preferred, after unmapping its blind labels. */
  winner: "a" | "b" | "tie" | null;
  scores: { a: { content: number; structure: number }; b: { content: number; structure: number } } | null;
  reasons: string;
  /** Which candidate stood behind the label the judge saw as A and as B. */
  labels: { A: "a" | "b"; B: "a" | "b" };
  error?: string;
}

export interface ScenarioComparison {
  id: string;
  a: Side;
  b: Side;
  /** b's pass rate minus a's. */
  difference: number;
  /** Fisher's exact test on passes out of attempts; small values mean the difference is unlikely to be chance. */
  p_value: number;
  /** The candidate agents did better with here: the higher pass rate; at equal rates, the one needing fewer calls. */
  better: "a" | "b" | "same";
  checks: CheckComparison[];
}

export interface Comparison {
  schema_version: "1.0.0";
  a: { candidate: string; file: string; results: string };
  b: { candidate: string; file: string; results: string; skills_removed: boolean };
  plan: { file: string; sha256: string };
  agent: string;
  settings: EvalResults["settings"];
  scenarios: ScenarioComparison[];
  overall: { a: Side; b: Side; difference: number; p_value: number };
  /** `scenario/check` ids that passed (or failed) everywhere in both: they cannot tell the candidates apart. */
  non_discriminating: string[];
  judging: { judge: string; seed: number; scenarios: JudgedScenario[] } | null;
}

function betterOf(a: Side, b: Side): "a" | "b" | "same" {
  if (a.pass_rate !== b.pass_rate) return b.pass_rate > a.pass_rate ? "b" : "a";
  if (a.passed && a.mean_invocations !== b.mean_invocations) return b.mean_invocations < a.mean_invocations ? "b" : "a";
  return "same";
}

function side(results: EvalResults, scenario?: string): Side {
  const attempts = results.attempts.filter((a) => !scenario || a.scenario === scenario);
  const n = attempts.length;
  const passed = attempts.filter((a) => a.status === "pass").length;
  const summary = scenario ? results.scenarios.find((s) => s.id === scenario) : undefined;
  const mean = (f: (a: (typeof attempts)[number]) => number) =>
    n ? Math.round(attempts.reduce((sum, a) => sum + f(a), 0) / n) : 0;
  return {
    attempts: n,
    passed,
    pass_rate: n ? passed / n : 0,
    pass_at_k: summary?.pass_at_k ?? (passed > 0 ? 1 : 0),
    pass_hat_k: summary?.pass_hat_k ?? (n && passed === n ? 1 : 0),
    mean_duration_ms: mean((a) => a.duration_ms),
    mean_invocations: Math.round((n ? attempts.reduce((sum, a) => sum + a.invocations.length, 0) / n : 0) * 10) / 10,
    mean_tokens: meanTokens(attempts),
  };
}

function meanTokens(attempts: EvalResults["attempts"]): number | null {
  const counted = attempts
    .map((a) => a.agent.summary?.tokens)
    .filter((t): t is { input: number; output: number } => Boolean(t));
  return counted.length ? Math.round(counted.reduce((sum, t) => sum + t.input + t.output, 0) / counted.length) : null;
}

function checkRates(results: EvalResults, scenario: string): Map<string, number> {
  const attempts = results.attempts.filter((a) => a.scenario === scenario);
  const rates = new Map<string, number>();
  for (const a of attempts)
    for (const c of a.checks) rates.set(c.id, (rates.get(c.id) ?? 0) + (c.status === "pass" ? 1 / attempts.length : 0));
  return rates;
}

/** Side by side, per scenario and overall, with the checks that cannot tell the two apart flagged. */
export function compareResults(
  a: EvalResults & { file: string },
  b: EvalResults & { file: string },
  options: { skillsRemoved: boolean; judging: Comparison["judging"] },
): Comparison {
  const ids = [...new Set([...a.scenarios.map((s) => s.id), ...b.scenarios.map((s) => s.id)])];
  const nonDiscriminating: string[] = [];
  const scenarios = ids.map((id): ScenarioComparison => {
    const [sa, sb] = [side(a, id), side(b, id)];
    const [ra, rb] = [checkRates(a, id), checkRates(b, id)];
    const checks = [...new Set([...ra.keys(), ...rb.keys()])].map((check) => {
      const [x, y] = [ra.get(check) ?? 0, rb.get(check) ?? 0];
      const same = Math.abs(x - y) < 1e-9 && (x > 1 - 1e-9 || x < 1e-9);
      if (same) nonDiscriminating.push(`${id}/${check}`);
      return { id: check, a_rate: x, b_rate: y, discriminating: !same };
    });
    return {
      id,
      a: sa,
      b: sb,
      difference: sb.pass_rate - sa.pass_rate,
      p_value: fisherExact(sa.passed, sa.attempts, sb.passed, sb.attempts),
      better: betterOf(sa, sb),
      checks,
    };
  });
  const [oa, ob] = [side(a), side(b)];
  return {
    schema_version: "1.0.0",
    a: { candidate: a.candidate.sha256, file: a.candidate.file, results: a.file },
    b: {
      candidate: b.candidate.sha256,
      file: b.candidate.file,
      results: b.file,
      skills_removed: options.skillsRemoved,
    },
    plan: a.plan,
    // One agent; with --mcp, B uses it through the candidate's MCP server, and the name says so.
    agent: a.agent.name === b.agent.name ? a.agent.name : `${a.agent.name} (A), ${b.agent.name} (B)`,
    settings: a.settings,
    scenarios,
    overall: {
      a: oa,
      b: ob,
      difference: ob.pass_rate - oa.pass_rate,
      p_value: fisherExact(oa.passed, oa.attempts, ob.passed, ob.attempts),
    },
    non_discriminating: nonDiscriminating,
    judging: options.judging,
  };
}

/** Each check of an attempt as an expectation with passed and evidence: the grading.json other viewers read. */
export function grading(attempt: EvalResults["attempts"][number]) {
  const expectations = attempt.checks.map((c) => ({
    text: `${c.id}: ${c.description}`,
    passed: c.status === "pass",
    evidence: `${c.status}: ${c.reason}; observed ${JSON.stringify(c.observed ?? null)}, expected ${JSON.stringify(c.expected ?? null)}`,
  }));
  const passed = expectations.filter((e) => e.passed).length;
  return {
    expectations,
    summary: {
      passed,
      failed: expectations.length - passed,
      total: expectations.length,
      pass_rate: expectations.length ? passed / expectations.length : 0,
    },
  };
}
