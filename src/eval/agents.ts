import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { AgentConfig } from "../config/types.js";
import { InterError } from "../errors.js";

export interface AgentRun {
  scenarioId: string;
  workspace: string;
  outputs: string;
  binDir: string;
  prompt: string;
  promptFile: string;
  env: Record<string, string>;
  timeoutMs: number;
  signal: AbortSignal;
}

export interface AgentOutcome {
  exitCode: number | null;
  timedOut: boolean;
  /** The agent could not run at all: a harness error, not a failure of the candidate. */
  harnessError?: string;
  transcript?: string;
}

export interface Agent {
  name: string;
  run(attempt: AgentRun): Promise<AgentOutcome>;
}

/** Documented non-interactive invocations of real coding agents, on the same template seam as any command. */
export const PRESETS: Record<string, string[]> = {
  "claude-code": ["claude", "-p", "{prompt}", "--output-format", "stream-json", "--verbose", "--dangerously-skip-permissions"],
  codex: ["codex", "exec", "--skip-git-repo-check", "--full-auto", "{prompt}"],
  opencode: ["opencode", "run", "{prompt}"],
};

const KILL_GRACE_MS = 2000;

async function spawnInGroup(argv: string[], attempt: AgentRun, options: { cwd: string; stdoutTo?: string }): Promise<AgentOutcome & { stdout: string }> {
  const { execa } = await import("execa");
  const child = execa(argv[0]!, argv.slice(1), { cwd: options.cwd, env: attempt.env, extendEnv: false, detached: true, stdin: "ignore", all: true, reject: false, buffer: true });
  let timedOut = false;
  const killGroup = (signal: NodeJS.Signals) => {
    try {
      if (child.pid) process.kill(-child.pid, signal);
    } catch {
      // gone
    }
  };
  const stop = () => {
    killGroup("SIGTERM");
    setTimeout(() => killGroup("SIGKILL"), KILL_GRACE_MS).unref();
  };
  const timer = setTimeout(() => {
    timedOut = true;
    stop();
  }, attempt.timeoutMs);
  attempt.signal.addEventListener("abort", stop, { once: true });
  const result = await child;
  clearTimeout(timer);
  attempt.signal.removeEventListener("abort", stop);
  killGroup("SIGKILL");
  // execa reports a program that could not be spawned with no exit code and the spawn error's code.
  const failedToStart = result.exitCode === undefined && ((result as { code?: string }).code === "ENOENT" || /ENOENT|EACCES/.test(String(result.message ?? "")));
  return {
    exitCode: result.exitCode ?? null,
    timedOut,
    stdout: String(result.stdout ?? ""),
    ...(failedToStart ? { harnessError: `could not start ${argv[0]}: ${String(result.shortMessage ?? result.message).split("\n")[0]}` } : {}),
    transcript: String(result.all ?? ""),
  };
}

/** Any agent as an argv template: {prompt}, {prompt_file}, {workspace}, {outputs} are filled per attempt. */
export function commandAgent(name: string, template: string[]): Agent {
  return {
    name,
    async run(attempt) {
      const fill = (part: string) => part.replaceAll("{prompt_file}", attempt.promptFile).replaceAll("{prompt}", attempt.prompt).replaceAll("{workspace}", attempt.workspace).replaceAll("{outputs}", attempt.outputs);
      const outcome = await spawnInGroup(template.map(fill), attempt, { cwd: attempt.outputs });
      const transcript = join(attempt.workspace, "transcript.txt");
      writeFileSync(transcript, outcome.transcript ?? "");
      return { exitCode: outcome.exitCode, timedOut: outcome.timedOut, ...(outcome.harnessError ? { harnessError: outcome.harnessError } : {}), transcript };
    },
  };
}

interface ReferenceStep {
  argv: string[];
  save_stdout?: string;
}

/** Replays reference solutions kept outside the plan: a golden run proving plan and candidate agree. */
export function referenceAgent(referenceFile: string | undefined): Agent {
  let steps: Record<string, ReferenceStep[]> = {};
  if (referenceFile) {
    try {
      steps = JSON.parse(readFileSync(referenceFile, "utf8")) as Record<string, ReferenceStep[]>;
    } catch (error) {
      throw new InterError("PLAN_INVALID", `${referenceFile}: ${(error as Error).message}`, "The reference file maps scenario ids to steps: [{ \"argv\": [...], \"save_stdout\"?: \"file\" }].", { file: referenceFile });
    }
  }
  return {
    name: "reference",
    async run(attempt) {
      const plan = steps[attempt.scenarioId];
      if (!Array.isArray(plan)) return { exitCode: null, timedOut: false, harnessError: `no reference solution for scenario ${attempt.scenarioId}${referenceFile ? ` in ${referenceFile}` : " (no eval-plan.reference.json)"}` };
      let last: AgentOutcome = { exitCode: 0, timedOut: false };
      for (const step of plan) {
        const outcome = await spawnInGroup([join(attempt.binDir, step.argv[0]!), ...step.argv.slice(1)], attempt, { cwd: attempt.outputs });
        if (step.save_stdout) writeFileSync(join(attempt.outputs, step.save_stdout), outcome.stdout);
        last = { exitCode: outcome.exitCode, timedOut: outcome.timedOut };
        if (outcome.timedOut) break;
      }
      return last;
    },
  };
}

export function agentFor(config: AgentConfig | undefined, referenceFile: string | undefined): Agent {
  if (!config || config === "reference") return referenceAgent(referenceFile);
  if (typeof config === "object") return commandAgent(`command:${config.command[0]}`, config.command);
  return commandAgent(config, PRESETS[config]!);
}
