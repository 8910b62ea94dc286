import { appendFileSync, cpSync, existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { planCredentialEnvs, type Plan } from "../../stages/plan/types.js";
import { join, relative } from "node:path";
import { fileSha256, sha256 } from "../../core/hash.js";
import type { ServiceConfig } from "../../config/types.js";
import { InterError } from "../../core/errors.js";
import type { Agent } from "../sandbox/agent-run.js";
import { modelRecord } from "../sandbox/agents.js";
import { runAttempt, type AttemptResult } from "./attempt.js";
import { installCandidate, type Installed } from "../../stages/inspect/install.js";
import { planLimits, planProofs } from "../../stages/plan/limits.js";
import { redactor } from "../../core/redact.js";
import { runSecrets } from "../sandbox/secrets.js";
import { detectIsolation } from "../sandbox/sandbox.js";

export type { AttemptResult } from "./attempt.js";
export type { EvalResults, ScenarioSummary, Shard } from "../results/types.js";
import type { EvalResults, ReceiptBinding, ScenarioSummary, Shard } from "../results/types.js";
import { count } from "../../core/plural.js";

/** The receipt binds only to the candidate it was made for; any other is reported unbound, never trusted. */
function bindReceipt(receipt: unknown, candidate: string): ReceiptBinding {
  if (!receipt || typeof receipt !== "object") return null;
  const { candidate: of, certification } = receipt as {
    candidate?: { sha256?: unknown };
    certification?: { level?: unknown };
  };
  const made = of?.sha256;
  if (made !== candidate)
    return {
      status: "unbound",
      reason: `receipt.json is for candidate sha256:${String(made ?? "unknown").slice(0, 12)}…, not this one (sha256:${candidate.slice(0, 12)}…); inspect this candidate with inter inspect`,
    };
  return { sha256: made, level: typeof certification?.level === "string" ? certification.level : "unknown" };
}

/** What a run keeps in its folder for the next: its journal, the attempts' folders, the candidate's copy, the broker's client. */
const JOURNALED = ["journal.jsonl", "attempts", ".candidate", ".broker-client"];

export interface EvalRunOptions {
  plan: Plan;
  planText: string;
  planFile: string;
  tgz: string;
  /** receipt.json as read, if any: bound to the results only when it was made for this candidate. */
  receipt: unknown;
  agent: Agent;
  runDir: string;
  services: Record<string, ServiceConfig>;
  servicesCwd: string;
  settings: { repetitions?: number; concurrency?: number; timeoutSeconds?: number };
  shard?: Shard;
  /** Run only these attempts (`scenario#repetition`) now; the others come from the journal (A/B runs interleave so). */
  only?: Set<string>;
  /** Discard journaled attempts, even of an interrupted run. */
  fresh: boolean;
  /** Reuse the attempts of a run that completed (by default a completed run is not reused: evaluation is not hermetic). */
  reuse?: boolean;
  interVersion: string;
  /** Files are recorded relative to this folder, so results read the same on every machine. */
  root: string;
  signal: AbortSignal;
  onAttempt(result: AttemptResult, resumed: boolean): void;
  assetsDir?: string;
  /** Files the agent must never see even if its argv names them (the plan, the reference solutions). */
  hidden?: string[];
  /** An unobserved mutating call fails its attempt, whatever the plan's settings say (--forbid-side-effects). */
  forbidSideEffects?: boolean;
}

const combinations = (n: number, k: number) => {
  let r = 1;
  for (let i = 0; i < k; i++) r = (r * (n - i)) / (i + 1);
  return r;
};

function summarize(id: string, attempts: AttemptResult[]): ScenarioSummary {
  const n = attempts.length;
  const c = attempts.filter((a) => a.status === "pass").length;
  return {
    id,
    attempts: n,
    passed: c,
    pass_rate: n ? c / n : 0,
    pass_at_k: n ? 1 - combinations(n - c, n) / combinations(n, n) : 0,
    pass_hat_k: n && c === n ? 1 : 0,
  };
}

/**
 * The attempts an interrupted run of the same key finished, by scenario#repetition. Only an interrupted run resumes:
 * a finished one runs again (its journal removed) unless reuse is asked for.
 */
function journaledAttempts(journal: string, key: string, reuse: boolean): Map<string, AttemptResult> {
  const finished = new Map<string, AttemptResult>();
  if (!existsSync(journal)) return finished;
  let completed = false;
  for (const line of readFileSync(journal, "utf8").split("\n")) {
    try {
      const entry = JSON.parse(line) as { key: string; attempt?: AttemptResult; complete?: boolean };
      if (entry.key !== key) continue;
      if (entry.complete) completed = true;
      else if (entry.attempt) finished.set(`${entry.attempt.scenario}#${entry.attempt.repetition}`, entry.attempt);
    } catch {
      // a line cut by a kill: that attempt simply runs again
    }
  }
  if (completed && !reuse) {
    finished.clear();
    rmSync(journal, { force: true });
  }
  return finished;
}

/**
 * npm installs the candidate once per run; each attempt gets its own pristine copy of that install (links kept
 * relative), which costs milliseconds instead of an npm run per attempt.
 */
function templateInstaller(tgz: string, templateDir: string): (target: string) => Promise<Installed> {
  let template: Promise<Installed> | undefined;
  return async (target) => {
    template ??= (rmSync(templateDir, { recursive: true, force: true }), installCandidate(tgz, templateDir));
    const t = await template;
    cpSync(templateDir, target, { recursive: true, verbatimSymlinks: true });
    const packageRoot = join(target, relative(templateDir, t.packageRoot));
    return {
      ...t,
      packageRoot,
      package: { ...t.package, root: packageRoot },
      bin: join(target, relative(templateDir, t.bin)),
      cleanup: () => rmSync(target, { recursive: true, force: true }),
    };
  };
}

/**
 * Runs every scenario × repetition as a sealed attempt (attempt.ts), journaling each finished attempt so an
 * interrupted run resumes.
 */
export async function runEvaluation(options: EvalRunOptions): Promise<EvalResults> {
  const { plan } = options;
  const settings = {
    repetitions: options.settings.repetitions ?? plan.settings?.repetitions ?? 1,
    concurrency: options.settings.concurrency ?? plan.settings?.concurrency ?? 1,
    timeout_seconds: options.settings.timeoutSeconds ?? plan.settings?.timeout_seconds ?? 600,
  };
  const startedAt = new Date().toISOString();
  const candidate = fileSha256(options.tgz);
  const planHash = sha256(options.planText);
  const shard = options.shard;
  // A different agent, version, reference, plan, candidate or receipt never inherits an attempt.
  const identity = await options.agent.identity();
  const receipt = bindReceipt(options.receipt, candidate);
  const receiptKey = receipt && "sha256" in receipt ? receipt.sha256 : null;
  const isolation = await detectIsolation();
  const key = sha256(
    JSON.stringify({
      candidate,
      planHash,
      agent: identity,
      receipt: receiptKey,
      isolation: isolation.kind,
      ...(shard ? { shard } : {}),
      ...(options.forbidSideEffects ? { forbidSideEffects: true } : {}),
    }),
  );
  const journal = join(options.runDir, "journal.jsonl");
  // Starting over discards what the run journals between attempts, and nothing else: a file a person put in the
  // folder stays (the reports are written anew at the end).
  if (options.fresh)
    for (const entry of JOURNALED) rmSync(join(options.runDir, entry), { recursive: true, force: true });
  mkdirSync(options.runDir, { recursive: true });
  const finished = journaledAttempts(journal, key, options.reuse === true);

  const secrets = runSecrets(planCredentialEnvs(plan), options.services);
  const redact = redactor(secrets.all);
  // Round-robin over the plan order: deterministic, and shard sizes differ by at most one attempt.
  const mine = plan.scenarios
    .flatMap((scenario) => Array.from({ length: settings.repetitions }, (_, i) => ({ scenario, repetition: i + 1 })))
    .filter((_, i) => !shard || i % shard.count === shard.index - 1);
  const todo = mine.filter(
    (a) =>
      !finished.has(`${a.scenario.id}#${a.repetition}`) &&
      (!options.only || options.only.has(`${a.scenario.id}#${a.repetition}`)),
  );
  for (const done of finished.values()) options.onAttempt(done, true);
  if (todo.length && isolation.kind === "none")
    process.stderr.write(
      `inter: attempts run unsealed (${isolation.reason}): the agent can reach the call records and the plan, so evidence could be forged. Install bubblewrap (Debian: apt-get install bubblewrap) to seal them.\n`,
    );

  const install = templateInstaller(options.tgz, join(options.runDir, ".candidate"));
  const context = {
    plan,
    runDir: options.runDir,
    isolation,
    agent: options.agent,
    timeoutMs: settings.timeout_seconds * 1000,
    install,
    services: options.services,
    servicesCwd: options.servicesCwd,
    credentials: planCredentialEnvs(plan),
    secrets: secrets.api,
    redact,
    ...(options.assetsDir ? { assetsDir: options.assetsDir } : {}),
    hidden: [options.planFile, ...(options.hidden ?? [])],
    signal: options.signal,
    ...(options.forbidSideEffects ? { forbidSideEffects: true } : {}),
  };
  const queue = [...todo];
  const worker = async () => {
    for (let next = queue.shift(); next && !options.signal.aborted; next = queue.shift()) {
      const result = await runAttempt(context, next.scenario, next.repetition);
      // An attempt cut short by the interrupt is not journaled: it runs again on resume.
      if (options.signal.aborted) continue;
      appendFileSync(journal, `${JSON.stringify({ key, attempt: result })}\n`);
      finished.set(`${result.scenario}#${result.repetition}`, result);
      options.onAttempt(result, false);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(settings.concurrency, todo.length)) }, worker));
  if (options.signal.aborted)
    throw new InterError(
      "INTERRUPTED",
      `Interrupted after ${finished.size} of ${count(mine.length, "attempt")}; the finished ones are journaled.`,
      "Run the same command again to resume; --fresh starts over.",
      { finished: finished.size },
    );

  if (mine.every((a) => finished.has(`${a.scenario.id}#${a.repetition}`)))
    appendFileSync(journal, `${JSON.stringify({ key, complete: true })}\n`);
  const attempts = mine
    .map((a) => finished.get(`${a.scenario.id}#${a.repetition}`))
    .filter((a): a is AttemptResult => Boolean(a));
  const ids: string[] = plan.scenarios.map((s) => s.id);
  return {
    schema_version: "1.0.0",
    candidate: { sha256: candidate, file: relative(options.root, options.tgz) },
    receipt,
    plan: { file: relative(options.root, options.planFile), sha256: planHash },
    agent: {
      name: options.agent.name,
      identity,
      ...modelRecord(
        options.agent,
        attempts.map((a) => a.agent.summary?.model),
        attempts.map((a) => a.agent.summary?.requested_model),
      ),
    },
    isolation,
    versions: { inter: options.interVersion, node: process.version },
    settings,
    assumptions: Array.isArray(plan.assumptions) ? plan.assumptions : [],
    limits: planLimits(plan),
    proves: planProofs(plan),
    started_at: startedAt,
    finished_at: new Date().toISOString(),
    ...tally(attempts, ids),
    ...(shard ? { shard: { ...shard, scenarios: ids } } : {}),
  };
}

/** Per-scenario summaries (for scenarios that have attempts, in plan order), totals and the strict verdict. */
export function tally(
  attempts: AttemptResult[],
  scenarioIds: string[],
): Pick<EvalResults, "scenarios" | "attempts" | "summary" | "verdict"> {
  const count = (s: string) => attempts.filter((a) => a.status === s).length;
  return {
    scenarios: scenarioIds
      .filter((id) => attempts.some((a) => a.scenario === id))
      .map((id) =>
        summarize(
          id,
          attempts.filter((a) => a.scenario === id),
        ),
      ),
    attempts,
    summary: {
      attempts: attempts.length,
      passed: count("pass"),
      failed: count("fail"),
      incomplete: count("incomplete"),
      harness_errors: count("error"),
    },
    verdict: attempts.length > 0 && attempts.every((a) => a.status === "pass") ? "pass" : "fail",
  };
}
