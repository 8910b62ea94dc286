import { progressDeadline } from "../../core/progress-deadline.js";
import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve, sep } from "node:path";
import { sha256 } from "../../core/hash.js";
import type { AgentConfig } from "../../config/types.js";
import { InterError } from "../../core/errors.js";
import {
  notRun,
  type Agent,
  type AgentOutcome,
  type AgentRun,
  type McpServerLaunch,
  type ShownFile,
} from "./agent-run.js";
import { findProgram, modelConfiguration, presetNamed, seedFiles, type Preset } from "./presets.js";
import { startInGroup } from "./spawn.js";

/** The model a run used: as configured (a hash and the name where said) and each one the agent reported it served. */
export interface ModelRecord {
  configured: string | null;
  configured_hash: string | null;
  served: string[];
}

/**
 * A run's ModelRecord from its agent and what each attempt or run reported: served are only the models that answered
 * (named by responses); the configured name is the configuration's, else the one the agent said it asked for. Nothing
 * when none says anything.
 */
export function modelRecord(
  agent: Agent,
  served: Array<string | undefined>,
  requested: Array<string | undefined> = [],
): { model?: ModelRecord } {
  const models = [...new Set(served.filter((m): m is string => !!m))].sort();
  const configured = agent.model?.();
  const asked = [...new Set(requested.filter((m): m is string => !!m))];
  const name = configured?.name ?? (asked.length === 1 ? asked[0]! : null);
  if (!configured && !models.length && !name) return {};
  return { model: { configured: name, configured_hash: configured?.hash ?? null, served: models } };
}

/**
 * A run's model in words, for reports and verdicts: as served (several joined, which means the run mixed models), else
 * as configured; undefined when neither is known.
 */
export function modelText(model: ModelRecord | undefined): string | undefined {
  if (model?.served.length) return `${model.served.join(" + ")}${model.served.length > 1 ? " (mixed)" : ""}`;
  return model?.configured ? `${model.configured} (configured)` : undefined;
}

/** The same agent, using the candidate through its MCP server: a different identity, so no attempt is shared. */
export function viaMcp(agent: Agent): Agent {
  return {
    ...agent,
    name: `${agent.name} via mcp`,
    via: "mcp",
    identity: async () => JSON.stringify({ interface: "mcp", agent: await agent.identity() }),
  };
}

/** The `mcpServers` document Claude Code reads (and opencode's and others' look alike). */
const mcpServersJson = (server: McpServerLaunch) =>
  JSON.stringify({ mcpServers: { [server.name]: { type: "stdio", command: server.command, args: server.args } } });

/** What one process of an agent run left: its outcome and its output (stdout alone, and stdout with stderr). */
type Spawned = AgentOutcome & { stdout: string; all: string };

/**
 * Runs argv through the run's sandbox (spawn.ts: its own process group); the timeout, the interrupt and a fatal line
 * of the agent's stop the group with the grace period every process of inter gets.
 */
async function spawnInGroup(
  argv: string[],
  attempt: AgentRun,
  options: {
    env?: Record<string, string>;
    stdin?: string;
    show?: ShownFile[];
    fatal?: () => (line: string) => string | undefined;
  } = {},
): Promise<Spawned> {
  const started = await startInGroup(attempt.command(argv, { show: options.show ?? [] }), {
    env: options.env ?? attempt.env,
    stdin: options.stdin === undefined ? "ignore" : "pipe",
    buffer: true,
  });
  const { child } = started;
  // The prompt, when it goes on stdin, is all there is: the agent reads it to the end, as from a pipe.
  if (options.stdin !== undefined) child.stdin!.end(options.stdin);
  let timedOut = false;
  const stop = () => void started.stop();
  const timer = setTimeout(() => {
    timedOut = true;
    stop();
  }, attempt.timeoutMs);
  // An agent that says its model or login is gone is stopped at once: it would otherwise retry until the timeout.
  let fatal: string | undefined;
  if (options.fatal) {
    const check = options.fatal();
    let pending = "";
    const onData = (chunk: Buffer) => {
      pending += chunk.toString("utf8");
      const lines = pending.split("\n");
      pending = lines.pop() ?? "";
      for (const line of lines) {
        const message = fatal ? undefined : check(line);
        if (message) {
          fatal = message;
          stop();
        }
      }
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
  }
  attempt.signal.addEventListener("abort", stop, { once: true });
  const result = await started.finished();
  clearTimeout(timer);
  attempt.signal.removeEventListener("abort", stop);
  // execa reports a program that could not be spawned with no exit code and the spawn error's code.
  const failedToStart =
    result.exitCode === undefined &&
    ((result as { code?: string }).code === "ENOENT" || /ENOENT|EACCES/.test(String(result.message ?? "")));
  // bubblewrap reports a program it cannot exec on stderr and exits 1 before the agent ever ran.
  const sandboxRefused = /^bwrap: execvp .*: (No such file|Permission denied)/m.exec(String(result.stderr ?? ""));
  const trace = {
    exitCode: result.exitCode ?? null,
    timedOut,
    stdout: String(result.stdout ?? ""),
    all: String(result.all ?? ""),
  };
  const message = failedToStart
    ? `could not start ${argv[0]}: ${String(result.shortMessage ?? result.message).split("\n")[0]}`
    : sandboxRefused
      ? `could not start ${argv[0]}: ${sandboxRefused[0]}`
      : fatal;
  return message === undefined ? { kind: "finished", ...trace } : { kind: "harness-error", message, ...trace };
}

/** An outcome with what the adapter adds (its transcript file, the parsed stream), without the raw output. */
function withTrace(outcome: Spawned, extra: { transcript?: string; parsed?: AgentOutcome["parsed"] }): AgentOutcome {
  const { stdout: _stdout, all: _all, ...rest } = outcome;
  return { ...rest, ...extra };
}

/** Any agent as an argv template: {prompt}, {prompt_file}, {workspace}, {outputs}, {attempt} are filled per attempt. */
function commandAgent(name: string, template: string[], env: Record<string, string> = {}): Agent {
  return {
    name,
    identity: async () => JSON.stringify({ command: template }),
    async run(attempt) {
      const fill = (part: string) =>
        part
          .replaceAll("{prompt_file}", attempt.seen.promptFile)
          .replaceAll("{prompt}", attempt.prompt)
          .replaceAll("{workspace}", attempt.seen.workspace)
          .replaceAll("{outputs}", attempt.seen.outputs)
          .replaceAll("{attempt}", attempt.label)
          .replaceAll("{mcp_config}", attempt.mcp ? mcpServersJson(attempt.mcp) : "");
      const outcome = await spawnInGroup(template.map(fill), attempt, { env: { ...attempt.env, ...env } });
      const transcript = join(attempt.host.workspace, "transcript.txt");
      writeFileSync(transcript, outcome.all);
      return withTrace(outcome, { transcript });
    },
  };
}

export interface ReferenceStep {
  argv: string[];
  save_stdout?: string;
  /** Save only this field of the JSON stdout (["result"]: the list a task asks for, without the envelope). */
  save_field?: string[];
}

/** What a step saves: its stdout, or the JSON of one field of it. */
function saved(stdout: string, field: string[] | undefined): string {
  if (!field) return stdout;
  let value: unknown = JSON.parse(stdout);
  for (const key of field)
    value = value && typeof value === "object" ? (value as Record<string, unknown>)[key] : undefined;
  return `${JSON.stringify(value ?? null, null, 2)}\n`;
}

/** Saves a step's output where it says (save_stdout), inside the outputs folder only; the harness error, if any. */
function saveStep(attempt: AgentRun, step: ReferenceStep, stdout: string): string | undefined {
  if (!step.save_stdout) return undefined;
  const target = resolve(attempt.host.outputs, step.save_stdout);
  if (!target.startsWith(resolve(attempt.host.outputs) + sep))
    return `reference step for ${attempt.scenarioId}: save_stdout "${step.save_stdout}" leaves the outputs folder`;
  try {
    writeFileSync(target, saved(stdout, step.save_field));
    return undefined;
  } catch (error) {
    return `reference step for ${attempt.scenarioId}: could not save ${step.save_stdout}: ${(error as Error).message}`;
  }
}

/** Replays reference solutions kept outside the plan: a golden run proving plan and candidate agree. */
function referenceAgent(referenceFile: string | undefined): Agent {
  let steps: Record<string, ReferenceStep[]> = {};
  let text = "";
  if (referenceFile) {
    try {
      text = readFileSync(referenceFile, "utf8");
      steps = JSON.parse(text) as Record<string, ReferenceStep[]>;
    } catch (error) {
      throw new InterError(
        "PLAN_INVALID",
        `${referenceFile}: ${(error as Error).message}`,
        'The reference file maps scenario ids to steps: [{ "argv": [...], "save_stdout"?: "file" }].',
        { file: referenceFile },
      );
    }
  }
  return {
    name: "reference",
    identity: async () => JSON.stringify({ reference: sha256(text) }),
    async run(attempt) {
      const plan = steps[attempt.scenarioId];
      if (!Array.isArray(plan))
        return notRun(
          `no reference solution for scenario ${attempt.scenarioId}${referenceFile ? ` in ${referenceFile}` : " (no eval-plan.reference.json)"}`,
        );
      if (attempt.mcp) {
        const { replayViaMcp } = await import("./mcp-replay.js");
        return replayViaMcp(plan, attempt, attempt.mcp, (stdout, step) => saveStep(attempt, step, stdout));
      }
      let last: AgentOutcome = { kind: "finished", exitCode: 0, timedOut: false };
      const log: string[] = [];
      // Each step goes through the same sealed client as an agent's call would.
      for (const step of plan) {
        const outcome = await spawnInGroup([join(attempt.seen.binDir, step.argv[0]!), ...step.argv.slice(1)], attempt);
        log.push(`$ ${step.argv.join(" ")}`, outcome.all);
        const failed = saveStep(attempt, step, outcome.stdout);
        if (failed) return notRun(failed);
        last = withTrace(outcome, {});
        if (outcome.timedOut || outcome.kind === "harness-error") break;
      }
      const transcript = join(attempt.host.workspace, "transcript.txt");
      writeFileSync(transcript, log.join("\n"));
      return { ...last, transcript };
    },
  };
}

/**
 * The agent program's own report of its version, for its identity; undefined when it gives none. Bounded by its
 * progress, not the clock (core/progress-deadline.ts): on a loaded machine opencode once took longer than the clock
 * allowed to say its version, the identity lost it, and a warm `inter eval triggers` ran every cached run again.
 */
async function programVersion(program: string): Promise<string | undefined> {
  const { execa } = await import("execa");
  const subprocess = execa(program, ["--version"], { reject: false, stdin: "ignore" });
  const cancel = progressDeadline(
    () => subprocess.pid,
    10_000,
    () => subprocess.kill("SIGKILL"),
  );
  const result = await subprocess;
  cancel();
  const line = String(result.stdout ?? "")
    .trim()
    .split("\n")[0];
  return result.exitCode === 0 && line ? line.slice(0, 200) : undefined;
}

/**
 * A real coding agent (presets.ts): found on PATH or in the project's node_modules/.bin, its own configuration shown
 * read-only in the attempt's HOME, its event stream parsed into one transcript format.
 */
function presetAgent(
  preset: Preset,
  root: string | undefined,
  extra: { args?: string[]; env?: Record<string, string> } = {},
): Agent {
  const program = () => findProgram(preset.program, process.env.PATH, root);
  let identity: Promise<string> | undefined;
  return {
    name: preset.name,
    model: () => modelConfiguration(preset, process.env, extra),
    identity: () =>
      (identity ??= (async () => {
        const found = program();
        const version = found ? await programVersion(found) : undefined;
        // The model is the variable that moves results most: what configures it is part of the identity (hashed).
        const model = modelConfiguration(preset, process.env, extra);
        return JSON.stringify({
          preset: preset.name,
          command: [preset.program, ...preset.args, ...(extra.args ?? [])],
          version: version ?? null,
          model: model.hash,
        });
      })()),
    async run(attempt) {
      const found = program();
      if (!found)
        return notRun(
          `${preset.program} (${preset.name}) is not installed here: npm install -g ${preset.install}, or add it to the project's devDependencies`,
        );
      const config = preset.configFiles(process.env);
      if (attempt.host.home) seedFiles(attempt.host.home, preset.homeFiles ?? {});
      const fill = (v: string) => v.replaceAll("{home}", attempt.seen.home);
      const env = {
        ...Object.fromEntries(Object.entries(preset.defaults).filter(([k]) => process.env[k] === undefined)),
        ...attempt.env,
        ...Object.fromEntries(Object.entries(config.env).map(([k, v]) => [k, fill(v)])),
        ...(extra.env ?? {}),
        ...preset.forced,
      };
      // Through MCP, the preset's own way of naming an MCP server (presets.ts) joins the extra arguments.
      const mcp = attempt.mcp ? preset.mcp(attempt.mcp) : { args: [], env: {} };
      Object.assign(env, mcp.env);
      const before = [...mcp.args, ...(extra.args ?? [])];
      // Extra arguments go before the prompt: Codex and Claude Code take it as the last positional.
      const args =
        preset.promptVia === "arg"
          ? preset.args.flatMap((a) => (a === "{prompt}" ? [...before, attempt.prompt] : [a]))
          : [...preset.args, ...before];
      const outcome = await spawnInGroup([found, ...args], attempt, {
        env,
        ...(preset.fatal ? { fatal: preset.fatal } : {}),
        ...(preset.promptVia === "stdin" ? { stdin: attempt.prompt } : {}),
        show: config.files.map((f) => ({ host: f.host, seen: `${attempt.seen.home}/${f.home}` })),
      });
      const transcript = join(attempt.host.workspace, "transcript.txt");
      writeFileSync(transcript, outcome.all);
      return withTrace(outcome, { transcript, parsed: preset.parse(outcome.stdout) });
    },
  };
}

export function agentFor(config: AgentConfig | undefined, referenceFile: string | undefined, root?: string): Agent {
  if (!config || config === "reference") return referenceAgent(referenceFile);
  if (typeof config === "object" && "preset" in config) return presetAgent(presetNamed(config.preset), root, config);
  if (typeof config === "object") return commandAgent(`command:${config.command[0]}`, config.command, config.env);
  return presetAgent(presetNamed(config), root);
}
