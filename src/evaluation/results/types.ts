import type { ModelRecord } from "../sandbox/agents.js";
import type { AttemptResult } from "../run/attempt.js";
import type { Isolation } from "../sandbox/sandbox.js";
import type { Limit } from "../../stages/plan/limits.js";

// The shape of an evaluation's results (results.json), shared by the run that writes them and everything that reads
// them: the gate, merging shards, diffs, the reports and comparisons.

/** Which inspection receipt the results are bound to; a receipt of another candidate is never bound. */
export type ReceiptBinding = { sha256: string; level: string } | { status: "unbound"; reason: string } | null;

export interface ScenarioSummary {
  id: string;
  attempts: number;
  passed: number;
  pass_rate: number;
  /** At least one of k attempts passed (k = attempts). */
  pass_at_k: number;
  /** All k attempts passed. */
  pass_hat_k: number;
}

export interface EvalResults {
  schema_version: "1.0.0";
  candidate: { sha256: string; file: string };
  receipt: ReceiptBinding;
  plan: { file: string; sha256: string };
  /** `identity` is what journals and --reuse key attempts by (preset or template, version, reference hash). */
  /**
   * `model`: as configured (a hash of what chooses it, and its name where the configuration says it) and as served (each
   * model the agent's stream reported; more than one means the run mixed models).
   */
  agent: { name: string; identity?: string; model?: ModelRecord };
  /** How attempts were sealed: "bubblewrap" (evidence the agent cannot reach) or "none" (evidence could be forged). */
  isolation?: Isolation;
  versions: { inter: string; node: string };
  settings: { repetitions: number; concurrency: number; timeout_seconds: number };
  assumptions: string[];
  /** What the plan's checks cannot establish, from its observations and check types. */
  limits: Limit[];
  /** What a pass of each scenario proves, one sentence per check (and per side-effect rule). */
  proves: Limit[];
  started_at: string;
  finished_at: string;
  scenarios: ScenarioSummary[];
  attempts: AttemptResult[];
  summary: { attempts: number; passed: number; failed: number; incomplete: number; harness_errors: number };
  /** Every attempt passed. The CI gate (below, added when the results are written) may accept less. */
  verdict: "pass" | "fail";
  gate?: GateResult;
  /** For a shard's results: which share of the attempts they hold, and every scenario of the plan, in order. */
  shard?: Shard & { scenarios: string[] };
}

/** Shard `index` of `count` (1-based) takes every count-th attempt of the plan's scenario × repetition list. */
export interface Shard {
  index: number;
  count: number;
}

export interface GateResult {
  min_pass_rate: number;
  allow_incomplete: boolean;
  require_sealed?: boolean;
  forbid_side_effects?: boolean;
  met: boolean;
  missed: Array<{ scenario: string; rate: number | null; reason: string }>;
}
