import { modelText } from "../sandbox/agents.js";
import { existsSync, readFileSync } from "node:fs";
import { planCredentialEnvs, type Plan } from "../../stages/plan/types.js";
import { join } from "node:path";
import { writeFileAtomic } from "../../core/atomic.js";
import type { AgentConfig } from "../../config/types.js";
import { InterError } from "../../core/errors.js";
import { agentFor, viaMcp } from "../sandbox/agents.js";
import {
  applyGate,
  gateError,
  gateLine,
  notJudged,
  notJudgedText,
  type GateOptions,
  type GateResult,
} from "../results/gate.js";
import { count } from "../../core/plural.js";
import { runEvaluation, type AttemptResult, type EvalResults, type EvalRunOptions } from "./run-attempts.js";
import { parseLossless } from "./lossless-json.js";

export type ExecuteEvalOptions = Omit<EvalRunOptions, "plan" | "planText" | "receipt" | "agent"> & {
  referenceFile?: string;
  receiptFile?: string;
  agent?: AgentConfig;
  /** "mcp": the agent uses the candidate through its MCP server. */
  interface?: "cli" | "mcp";
  gate: GateOptions;
};

/**
 * Validates the plan (all stages that can run), runs it, judges it by the gate, and writes results.json with
 * report.html, junit.xml and summary.md beside it.
 */
export async function executeEvaluation(
  options: ExecuteEvalOptions,
): Promise<{ results: EvalResults & { gate: GateResult }; file: string; reports: string[] }> {
  const [{ validatePlan, planInvalid }, { treeFromReceipt }] = await Promise.all([
    import("../../stages/plan/validate.js"),
    import("../../stages/plan/tree-from-receipt.js"),
  ]);
  if (!existsSync(options.tgz))
    throw new InterError(
      "INPUT_NOT_FOUND",
      `No candidate at ${options.tgz}.`,
      "Build one with `inter build`, or put cli.tgz in the evaluation folder.",
      { file: options.tgz },
    );
  if (!existsSync(options.planFile))
    throw new InterError(
      "INPUT_NOT_FOUND",
      `No plan at ${options.planFile}.`,
      "Write one with `inter eval new <folder>`.",
      { file: options.planFile },
    );
  const planText = readFileSync(options.planFile, "utf8");
  const receipt =
    options.receiptFile && existsSync(options.receiptFile)
      ? JSON.parse(readFileSync(options.receiptFile, "utf8"))
      : undefined;
  // The reference solutions are checked with the plan when they are what will run.
  const replaying =
    (options.agent ?? "reference") === "reference" && options.referenceFile && existsSync(options.referenceFile);
  const report = await validatePlan(
    planText,
    options.planFile,
    receipt?.globalFlags ? treeFromReceipt(receipt) : null,
    replaying
      ? { reference: { file: options.referenceFile!, text: readFileSync(options.referenceFile!, "utf8") } }
      : {},
  );
  if (!report.valid) throw planInvalid(report);
  // Validated above against the schema: from here on it is a Plan.
  const plan = parseLossless(planText) as Plan;
  requireCredential(plan, options.planFile);
  const { referenceFile, receiptFile: _receipt, agent, gate, interface: via, ...rest } = options;
  const chosen = agentFor(agent, referenceFile && existsSync(referenceFile) ? referenceFile : undefined, options.root);
  const results = await runEvaluation({
    ...rest,
    plan,
    planText,
    receipt: receipt ?? null,
    agent: via === "mcp" ? viaMcp(chosen) : chosen,
    hidden: referenceFile ? [referenceFile] : [],
    ...(gate.forbidSideEffects ? { forbidSideEffects: true } : {}),
  });
  const judged = { ...results, gate: applyGate(results, gate) };
  const file = join(options.runDir, "results.json");
  writeFileAtomic(file, `${JSON.stringify(judged, null, 2)}\n`);
  const { writeReports } = await import("../report/write.js");
  return { results: judged, file, reports: await writeReports(judged, options.runDir) };
}

/**
 * A run without the credential can only fail every call: that says nothing about the candidate, so it is refused
 * before any attempt, and the last results stay as they are.
 */
function requireCredential(plan: Plan, planFile: string): void {
  const unset = planCredentialEnvs(plan).filter((name) => !process.env[name]);
  if (unset.length) {
    throw new InterError(
      "CREDENTIAL_MISSING",
      `${unset.join(", ")} ${unset.length === 1 ? "is" : "are"} not set: the plan (${planFile}, target.credential_env) needs the API's credential${unset.length === 1 ? "" : "s"} in ${unset.length === 1 ? "it" : "them"}.`,
      `${unset.map((name) => `export ${name}=<…>`).join("; ")} (for ${plan.target.account ?? "the plan's account"}), then run again.`,
      { env: unset[0], variables: unset, file: planFile },
    );
  }
}

/** EVAL_FAILED naming each scenario that missed the gate, or EVAL_NOT_JUDGED when every attempt was a harness error. */
export function gateFailure(
  results: EvalResults & { gate: GateResult },
  file: string,
  extra: Record<string, unknown> = {},
): InterError {
  return gateError(
    results,
    `${results.summary.passed} of ${count(results.summary.attempts, "attempt")} passed; see ${file.replace(/results\.json$/, "report.html")}.`,
    "Open report.html (or summary.md) for each failed check's observed and expected values; lower the bar only on purpose, with --min-pass-rate or --allow-incomplete.",
    {
      file,
      summary: results.summary,
      ...extra,
    },
  );
}

export function attemptLine(a: AttemptResult, resumed: boolean): string {
  const mark = a.status === "pass" ? "✔" : a.status === "fail" ? "✖" : a.status === "incomplete" ? "…" : "!";
  const failed = a.checks.filter((c) => c.status !== "pass").map((c) => `${c.id} ${c.status}: ${c.reason}`);
  return `${mark} ${a.scenario} #${a.repetition} ${a.status === "error" ? "harness error" : a.status}${resumed ? " (resumed from journal)" : ` in ${(a.duration_ms / 1000).toFixed(1)} s`}${a.harness_error ? ` — harness error: ${a.harness_error}` : ""}${failed.length ? `\n    ${failed.join("\n    ")}` : ""}`;
}

export function summaryTable(results: EvalResults & { gate: GateResult }): string {
  const rows = results.scenarios.map(
    (s) =>
      `  ${s.id.padEnd(28)} ${String(s.passed).padStart(2)}/${s.attempts}  pass rate ${(s.pass_rate * 100).toFixed(0).padStart(3)}%  pass@${s.attempts} ${s.pass_at_k.toFixed(2)}  pass^${s.attempts} ${s.pass_hat_k.toFixed(2)}`,
  );
  const { summary } = results;
  const sealed = results.isolation?.kind === "bubblewrap" ? "sealed" : "UNSEALED: evidence could be forged";
  return [
    ...rows,
    gateLine(results.gate),
    ...(notJudged(results) ? [`⚠ NOT JUDGED: ${notJudgedText(results)}.`] : []),
    ...((results.agent.model?.served.length ?? 0) > 1
      ? [`⚠ MIXED MODELS: ${results.agent.model!.served.join(", ")} answered in this one run; its pass rates mix them.`]
      : []),
    `${notJudged(results) ? "NOT JUDGED" : results.gate.met ? "PASS" : "FAIL"}: ${summary.passed}/${count(summary.attempts, "attempt")} passed; candidate failed ${summary.failed}, could not judge ${summary.incomplete}, harness broke ${summary.harness_errors} (agent ${results.agent.name}${modelText(results.agent.model) ? `, model ${modelText(results.agent.model)}` : ""}, ${sealed}, candidate sha256:${results.candidate.sha256.slice(0, 12)}…)`,
  ].join("\n");
}
