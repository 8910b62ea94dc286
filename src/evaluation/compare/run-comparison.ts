import { planCredentialEnvs } from "../../stages/plan/types.js";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { join, relative } from "node:path";
import { writeFileAtomic } from "../../core/atomic.js";
import type { AgentConfig, ServiceConfig } from "../../config/types.js";
import { InterError } from "../../core/errors.js";
import { refuseAcrossModels, servedModelsDiffer } from "../results/served-models.js";
import { agentFor, viaMcp } from "../sandbox/agents.js";
import { redactor } from "../../core/redact.js";
import { runSecrets } from "../sandbox/secrets.js";
import { runEvaluation, type AttemptResult, type EvalResults } from "../run/run-attempts.js";
import { applyGate, DEFAULT_GATE } from "../results/gate.js";
import { writeReports } from "../report/write.js";
import { compareResults, grading, type Comparison } from "./compare.js";

export interface CompareOptions {
  planFile: string;
  a: string;
  /** Candidate B, or undefined with skillsUplift: then B is A without its Skills. */
  b?: string;
  skillsUplift: boolean;
  /** Compare even when A and B were answered by different models (the agent reports each side's model). */
  acrossModels?: boolean;
  /** B is A used through its MCP server (CLI against MCP, one candidate, one agent). */
  mcp?: boolean;
  agent?: AgentConfig;
  referenceFile?: string;
  judge?: string[];
  seed: number;
  outDir: string;
  services: Record<string, ServiceConfig>;
  servicesCwd: string;
  settings: { repetitions?: number; timeoutSeconds?: number };
  root: string;
  interVersion: string;
  signal: AbortSignal;
  onAttempt(side: "a" | "b", attempt: AttemptResult): void;
}

/**
 * Runs one plan with one agent against two candidates, attempt by attempt in turn (A then B for each scenario ×
 * repetition, each with its services fresh), so time of day, API state and load fall on both alike; then compares them.
 */
export async function runComparison(options: CompareOptions): Promise<{ comparison: Comparison; file: string }> {
  const { validatePlan, planInvalid } = await import("../../stages/plan/validate.js");
  for (const f of [options.planFile, options.a, ...(options.b ? [options.b] : [])])
    if (!existsSync(f))
      throw new InterError(
        "INPUT_NOT_FOUND",
        `No file at ${relative(options.root, f)}.`,
        "Give a plan file and two cli.tgz files (or folders holding cli.tgz).",
        { file: f },
      );
  const planText = readFileSync(options.planFile, "utf8");
  const report = await validatePlan(planText, relative(options.root, options.planFile), null);
  if (!report.valid) throw planInvalid(report);
  const plan = JSON.parse(planText);

  rmSync(options.outDir, { recursive: true, force: true });
  mkdirSync(options.outDir, { recursive: true });
  let b = options.b;
  if (options.skillsUplift) {
    const { withoutSkills } = await import("./uplift.js");
    b = join(options.outDir, "cli-without-skills.tgz");
    await withoutSkills(options.a, b);
  }
  if (options.mcp) b = options.a;
  const sides = { a: options.a, b: b! };
  const agent = agentFor(
    options.agent,
    options.referenceFile && existsSync(options.referenceFile) ? options.referenceFile : undefined,
    options.root,
  );
  const agents = { a: agent, b: options.mcp ? viaMcp(agent) : agent };
  const repetitions = options.settings.repetitions ?? plan.settings?.repetitions ?? 1;
  const run = (side: "a" | "b", only: Set<string>) =>
    runEvaluation({
      plan,
      planText,
      planFile: options.planFile,
      tgz: sides[side],
      receipt: null,
      agent: agents[side],
      runDir: join(options.outDir, side),
      services: options.services,
      servicesCwd: options.servicesCwd,
      settings: { repetitions, concurrency: 1, timeoutSeconds: options.settings.timeoutSeconds },
      fresh: false,
      reuse: true,
      only,
      interVersion: options.interVersion,
      root: options.root,
      signal: options.signal,
      onAttempt: (attempt, resumed) => resumed || options.onAttempt(side, attempt),
    });
  for (const scenario of plan.scenarios)
    for (let r = 1; r <= repetitions; r++)
      for (const side of ["a", "b"] as const) {
        await run(side, new Set([`${scenario.id}#${r}`]));
        if (options.signal.aborted)
          throw new InterError("INTERRUPTED", "Interrupted; the comparison is incomplete.", "Run it again.");
      }
  const results = {} as Record<"a" | "b", EvalResults & { file: string }>;
  for (const side of ["a", "b"] as const) {
    const done = await run(side, new Set());
    const file = join(options.outDir, side, "results.json");
    const judged = { ...done, gate: applyGate(done, DEFAULT_GATE) };
    writeFileAtomic(file, `${JSON.stringify(judged, null, 2)}\n`);
    await writeReports(judged, join(options.outDir, side));
    for (const attempt of done.attempts)
      writeFileAtomic(join(attempt.workspace, "grading.json"), `${JSON.stringify(grading(attempt), null, 2)}\n`);
    results[side] = { ...done, file: relative(options.root, file) };
  }

  // A difference the model made is not the candidates': one side served by another model compares nothing.
  refuseAcrossModels(servedModelsDiffer(results.a, results.b), ["A", "B"], !!options.acrossModels, {
    results: [results.a.file, results.b.file],
  });
  let judging: Comparison["judging"] = null;
  if (options.judge) {
    const { judgeBlind } = await import("./blind-judge.js");
    const judge = agentFor({ command: options.judge }, undefined);
    const firsts = (side: "a" | "b") => results[side].attempts.filter((x) => x.repetition === 1);
    const secrets = runSecrets(planCredentialEnvs(plan), options.services);
    const redact = redactor(secrets.all);
    const scenarios = await judgeBlind({
      plan,
      a: firsts("a"),
      b: firsts("b"),
      judge,
      seed: options.seed,
      dir: join(options.outDir, "judging"),
      timeoutMs: (options.settings.timeoutSeconds ?? 600) * 1000,
      signal: options.signal,
      redact,
      blockedEnv: planCredentialEnvs(plan),
      secrets: secrets.api,
    });
    judging = { judge: judge.name, seed: options.seed, scenarios };
  }
  const comparison = compareResults(results.a, results.b, { skillsRemoved: options.skillsUplift, judging });
  const file = join(options.outDir, "comparison.json");
  writeFileAtomic(file, `${JSON.stringify(comparison, null, 2)}\n`);
  const { renderComparisonHtml, renderComparisonMarkdown } = await import("../report/comparison.js");
  writeFileAtomic(join(options.outDir, "report.html"), renderComparisonHtml(comparison));
  writeFileAtomic(join(options.outDir, "summary.md"), renderComparisonMarkdown(comparison));
  return { comparison, file };
}
