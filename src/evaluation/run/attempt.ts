import { manifestCredentialNames } from "../../surface/surface.js";
import { ownedTempDir } from "../../core/temp-dirs.js";
import type { Plan, PlanTarget, Scenario } from "../../stages/plan/types.js";
import { cpSync, existsSync, mkdirSync, rmSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import type { ServiceConfig } from "../../config/types.js";
import { withBasePath } from "../../engine/services/supervisor.js";
import type { Installed } from "../../stages/inspect/install.js";
import type { CandidateManifest } from "../../stages/candidate/candidate-manifest.js";
import { InterError } from "../../core/errors.js";
import type { Agent, AgentOutcome } from "../sandbox/agent-run.js";
import { prepareRun } from "../sandbox/prepare-run.js";
import { startBroker, type Invocation } from "../sandbox/broker.js";
import { writeBrokerClient } from "../sandbox/broker-client.js";
import { nativeClient, writeNativeClient } from "../sandbox/broker-client-native.js";
import { attemptStatus, judgeCheck, observe, type CheckResult, type CheckStatus } from "./checks.js";
import { redactDeep } from "../../core/redact.js";
import { mutatingCalls, mutatingCommands, sideEffectChecks, type SideEffect } from "./side-effects.js";
import { summarizeTranscript, type TranscriptSummary } from "../sandbox/transcript.js";
import { bwrapArgs, SEALED_PATHS, type Isolation } from "../sandbox/sandbox.js";

interface AttemptRecord {
  scenario: string;
  repetition: number;
  checks: CheckResult[];
  invocations: Invocation[];
  /** `summary`: what the agent's own event stream says (presets): turns, tool calls, tokens, cost, its answer. */
  agent: { exit_code: number | null; timed_out: boolean; transcript?: string; summary?: TranscriptSummary };
  duration_ms: number;
  workspace: string;
  /** Calls of mutating commands that no observation of the scenario matched (what the plan never looks at). */
  side_effects?: SideEffect[];
}

/**
 * One attempt as results.json keeps it, tagged by `status`: judged (pass, fail, incomplete), or "error" with the
 * harness error that left it unjudged — nothing was learnt about the candidate.
 */
export type AttemptResult =
  | (AttemptRecord & { status: CheckStatus; harness_error?: undefined })
  | (AttemptRecord & { status: "error"; harness_error: string });

/** What every attempt of one run shares. */
export interface AttemptContext {
  plan: Plan;
  runDir: string;
  isolation: Isolation;
  agent: Agent;
  timeoutMs: number;
  /** A fresh copy of the candidate's installation in the given folder. */
  install(into: string): Promise<Installed>;
  /** Started for each attempt (fresh API state); none means the plan's api_url, shared by every attempt. */
  services: Record<string, ServiceConfig>;
  servicesCwd: string;
  /** The plan's credential variables (target.credential_env): their values reach the candidate, never the agent. */
  credentials: string[];
  /** Values the agent's environment never holds, whatever their variable is called (sandbox/secrets.ts). */
  secrets: string[];
  redact(text: string): string;
  assetsDir?: string;
  /** Host paths never shown to the agent even when its argv names them: the evaluation folder, plan, references. */
  hidden: string[];
  signal: AbortSignal;
  /** The gate's --forbid-side-effects: an unobserved mutating call fails the attempt whatever the plan says. */
  forbidSideEffects?: boolean;
}

/** The base PATH of the candidate's own process: Node first, for the `#!/usr/bin/env node` of generated CLIs. */
const cliPath = () => [...new Set([dirname(process.execPath), "/usr/local/bin", "/usr/bin", "/bin"])].join(":");

function prompt(
  scenario: Scenario,
  target: PlanTarget,
  outputs: string,
  assets: string,
  binary: string,
  mcp = false,
): string {
  return [
    mcp
      ? `You have an MCP server, \`${binary}\`, among your tools. Use its tools to do this task:`
      : `You have a command-line tool, \`${binary}\`, on your PATH. Use it to do this task:`,
    "",
    scenario.user_task,
    "",
    ...(scenario.inputs && Object.keys(scenario.inputs).length
      ? ["Inputs:", "```json", JSON.stringify(scenario.inputs, null, 2), "```", ""]
      : []),
    `Write any files the task asks for into ${outputs} (your working directory). Read-only inputs, if any, are in ${assets}.`,
    ...(Array.isArray(target.allowed_reads) && target.allowed_reads.length
      ? [`You may read: ${target.allowed_reads.join("; ")}.`]
      : []),
    mcp
      ? `Its tools are its commands; its prompts and resources hold its Skills and rules. Do not ask questions; finish the task and stop.`
      : `Run \`${binary} --help\` to discover its commands. Do not ask questions; finish the task and stop.`,
  ].join("\n");
}

const tail = (text: string, lines = 6) => text.trim().split("\n").slice(-lines).join("\n").slice(-800);

/**
 * The credentials the candidate (run by the broker, out of the agent's reach) is given: the variables the plan names,
 * and only those — each is redacted from every record (sandbox/secrets.ts), so nothing reaches the candidate unredacted. A plan
 * naming one variable for a candidate that reads one other (a plan written before a rename) still reaches it under
 * the candidate's name. OAuth tokens the candidate obtains are not cached: its HOME is the agent's.
 */
function candidateCredentials(planned: string[], manifest: CandidateManifest | undefined): Record<string, string> {
  const reads = manifestCredentialNames(manifest?.auth);
  const out: Record<string, string> = { AGENT_CLI_TOKEN_CACHE: "off" };
  for (const name of planned) if (process.env[name]) out[name] = process.env[name]!;
  if (planned.length === 1 && reads.length === 1 && !out[reads[0]!] && out[planned[0]!])
    out[reads[0]!] = out[planned[0]!]!;
  return out;
}

/**
 * Through MCP: the package (its MCP server) is shown read-only beside a broker client that is not on PATH; the server
 * runs each tool call through that client, so the broker records it as the command it is. Where the broker's client
 * goes, and the MCP server the agent is given; a message when the candidate ships no server.
 */
function mcpSetup(
  viaMcp: boolean,
  installed: Installed,
  prepared: ReturnType<typeof prepareRun>,
): { clientDir: string; mcp?: { name: string; command: string; args: string[] } } | { unusable: string } {
  const { folders, seen } = prepared;
  if (!viaMcp) return { clientDir: folders.bin };
  if (!existsSync(join(installed.packageRoot, `${installed.binary}-mcp.cjs`)))
    return {
      unusable: `the candidate ships no MCP server (${installed.binary}-mcp.cjs), so it cannot be used through MCP`,
    };
  const clientDir = join(folders.bin, "cli");
  mkdirSync(clientDir, { recursive: true });
  cpSync(installed.packageRoot, join(folders.bin, "mcp"), { recursive: true });
  return {
    clientDir,
    mcp: {
      name: installed.binary,
      command: process.execPath,
      args: [`${seen.bin}/mcp/${installed.binary}-mcp.cjs`, "--cli", `${seen.bin}/cli/${installed.binary}`],
    },
  };
}

/**
 * The broker that runs the candidate with the credentials, out of the agent's reach (sealed in bubblewrap when the
 * attempt is), and its client where the agent calls the CLI.
 */
async function startCandidateBroker(
  ctx: AttemptContext,
  installed: Installed,
  prepared: ReturnType<typeof prepareRun>,
  clientDir: string,
  socket: string,
  baseUrl: string | undefined,
) {
  const { folders, seen, sealed } = prepared;
  const { manifest } = installed.package;
  const cliEnv: Record<string, string> = {
    PATH: cliPath(),
    HOME: seen.home,
    TMPDIR: seen.tmp,
    LANG: "C.UTF-8",
    // The HOME is the agent's, which it can write: a compiled-code cache planted there would run in the process that
    // holds the credentials (src/stages/emit/cli-shim.ts). The candidate compiles its runtime afresh instead.
    NODE_DISABLE_COMPILE_CACHE: "1",
    ...(manifest?.baseUrl?.env && baseUrl ? { [manifest.baseUrl.env]: baseUrl } : {}),
    ...candidateCredentials(ctx.credentials, manifest),
  };
  const modules = dirname(dirname(installed.bin));
  const broker = await startBroker({
    socket,
    binary: installed.binary,
    launch: (args, cwd) =>
      sealed
        ? {
            file: "bwrap",
            args: [
              ...bwrapArgs({ folders, readOnly: [], candidate: modules, chdir: cwd }),
              "--",
              installed.bin,
              ...args,
            ],
            env: cliEnv,
            cwd: folders.outputs,
          }
        : {
            file: installed.bin,
            args,
            env: cliEnv,
            cwd: existsSync(cwd) && statSync(cwd).isDirectory() ? cwd : folders.outputs,
          },
  });
  // Sealed, the socket is always at the same path, so one compiled native client serves every attempt.
  const native = sealed ? await nativeClient(join(ctx.runDir, ".broker-client")) : undefined;
  if (native) writeNativeClient(clientDir, installed.binary, native);
  else writeBrokerClient(clientDir, installed.binary, sealed ? SEALED_PATHS.socket : broker.socket);
  return broker;
}

/** What the plan checks, judged from what the broker recorded and what is in outputs/; changes it did not look at. */
function judgeAttempt(
  ctx: AttemptContext,
  scenario: Scenario,
  invocations: Invocation[],
  outputs: string,
  installed: Installed,
): { checks: CheckResult[]; sideEffects: SideEffect[] } {
  const observations = new Map(scenario.observations.map((o) => [o.id, observe(o, invocations, outputs, true)]));
  // Changes the plan does not look at are listed, and fail the attempt when the plan (or the gate) forbids them.
  const calls = mutatingCalls(invocations, scenario.observations, mutatingCommands(installed.package));
  const sideEffects: SideEffect[] = calls.filter((c) => !c.observed).map(({ observed: _o, ...c }) => c);
  const checks: CheckResult[] = [
    ...scenario.checks.map((c) => judgeCheck(c, observations)),
    ...sideEffectChecks(calls, ctx.plan, ctx.forbidSideEffects === true),
  ];
  return { checks, sideEffects };
}

/**
 * One scenario × repetition: fresh folders and services, the candidate behind a broker, the agent sealed in its
 * sandbox, then the judging of what the broker recorded and what is in outputs/.
 */
export async function runAttempt(ctx: AttemptContext, scenario: Scenario, repetition: number): Promise<AttemptResult> {
  const started = performance.now();
  const workspace = join(ctx.runDir, "attempts", `${scenario.id}-${repetition}`);
  const prepared = prepareRun({
    workspace,
    isolation: ctx.isolation,
    home: "fresh",
    ...(ctx.assetsDir ? { assetsFrom: ctx.assetsDir } : {}),
  });
  const { folders, seen } = prepared;
  const base = {
    scenario: scenario.id,
    repetition,
    invocations: [] as Invocation[],
    agent: { exit_code: null, timed_out: false },
    workspace,
  };
  const elapsed = () => Math.round(performance.now() - started);
  const harness = (message: string, checks: CheckResult[] = []): AttemptResult => ({
    ...base,
    status: "error",
    checks,
    harness_error: ctx.redact(message),
    duration_ms: elapsed(),
  });

  let installed: Installed;
  try {
    installed = await ctx.install(join(workspace, ".cli"));
  } catch (error) {
    // A candidate of the wrong shape is the input's fault, not this attempt's: the run stops on it, saying so.
    if (error instanceof InterError && error.code === "CANDIDATE_INVALID") throw error;
    return harness(`the candidate could not be installed: ${(error as Error).message}`);
  }
  const { manifest } = installed.package;

  const viaMcp = ctx.agent.via === "mcp";
  const setup = mcpSetup(viaMcp, installed, prepared);
  if ("unusable" in setup) return harness(setup.unusable);
  const { clientDir, mcp } = setup;
  const text = prompt(scenario, ctx.plan.target ?? {}, seen.outputs, seen.assets, installed.binary, viaMcp);

  // Fresh services for every attempt: repetitions and concurrent attempts never see each other's changes.
  const names = Object.keys(ctx.services);
  let services: { origins: Record<string, string>; stop(): Promise<void> } | undefined;
  if (names.length) {
    const { startServices } = await import("../../engine/services/supervisor.js");
    services = await startServices(ctx.services, ctx.servicesCwd);
  }
  const baseUrl: string | undefined = services
    ? withBasePath(services.origins[names[0]!]!, manifest?.baseUrl?.path)
    : ctx.plan.target?.api_url;
  const socketDir = ownedTempDir("broker");
  try {
    const broker = await startCandidateBroker(ctx, installed, prepared, clientDir, join(socketDir, "s"), baseUrl);
    const run = prepared.agentRun({
      scenarioId: scenario.id,
      label: `${scenario.id}-${repetition}`,
      prompt: text,
      socket: broker.socket,
      binOnPath: !viaMcp,
      ...(mcp ? { mcp } : {}),
      blocked: [
        ...ctx.credentials,
        ...manifestCredentialNames(manifest?.auth),
        ...(manifest?.baseUrl?.env ? [manifest.baseUrl.env] : []),
        ...names.flatMap((n) => Object.keys(ctx.services[n]!.env ?? {})),
      ],
      secrets: ctx.secrets,
      hidden: [ctx.runDir, ...ctx.hidden],
      timeoutMs: ctx.timeoutMs,
      signal: ctx.signal,
    });
    let outcome: AgentOutcome;
    try {
      outcome = await ctx.agent.run(run);
    } finally {
      base.invocations = redactDeep(await broker.close(), ctx.redact);
    }
    const invocations = base.invocations;
    const { checks, sideEffects } = judgeAttempt(ctx, scenario, invocations, folders.outputs, installed);
    const { transcriptText, parsed } = prepared.scrub(outcome, ctx.redact);
    const summary = parsed ? summarizeTranscript(parsed) : undefined;
    const agent = {
      exit_code: outcome.exitCode,
      timed_out: outcome.timedOut,
      ...(outcome.transcript ? { transcript: outcome.transcript } : {}),
      ...(summary ? { summary } : {}),
    };
    const result = { ...base, agent, side_effects: sideEffects };
    // Every way the agent's run ended is an attempt's result (the switch is exhaustive).
    const settle = (ended: AgentOutcome): AttemptResult => {
      switch (ended.kind) {
        case "harness-error":
          return { ...harness(ended.message, checks), ...result };
        case "finished":
          // The agent's own account of a failure of its model, login or permissions: nothing was learnt about the candidate.
          if (parsed?.error && !ended.timedOut) return { ...harness(parsed.error, checks), ...result };
          // An agent that gives up at once (not logged in, model unreachable) told us nothing about the candidate.
          if (!ended.timedOut && ended.exitCode !== 0 && invocations.length === 0) {
            return {
              ...harness(
                `the agent exited with ${ended.exitCode === null ? "no exit code" : `code ${ended.exitCode}`} without calling ${installed.binary}${transcriptText.trim() ? `: ${tail(transcriptText)}` : ""}`,
                checks,
              ),
              ...result,
            };
          }
          return { ...result, status: attemptStatus(checks), checks, duration_ms: elapsed() };
      }
    };
    return settle(outcome);
  } finally {
    rmSync(socketDir, { recursive: true, force: true });
    await services?.stop();
  }
}
