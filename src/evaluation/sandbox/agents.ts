import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve, sep } from "node:path";
import { sha256 } from "../../core/hash.js";
import type { AgentConfig } from "../../config/types.js";
import { InterError } from "../../core/errors.js";
import { signalGroup, stopGroup } from "../../core/process.js";
import { findProgram, modelConfiguration, PRESETS, type Preset } from "./presets.js";
import type { Transcript } from "./transcript.js";

/** One attempt as an agent adapter gets it. */
export interface AgentRun {
  scenarioId: string;
  /** `<scenario>-<repetition>`: the `{attempt}` placeholder. */
  label: string;
  prompt: string;
  /** Paths as the agent sees them (inside the sandbox when sealed). */
  seen: { workspace: string; outputs: string; promptFile: string; binDir: string; home: string };
  /**
   * Paths on the host, where inter keeps the transcript and reads the outputs; never shown to the agent. `home`: the
   * attempt's own fresh HOME, when it has one (a judge runs in yours).
   */
  host: { workspace: string; outputs: string; home?: string };
  env: Record<string, string>;
  timeoutMs: number;
  signal: AbortSignal;
  /**
   * Wraps a command line so it runs sealed in the attempt (or as is, unsealed), starting in the outputs folder.
   * `hiddenArgs` go to the program through file descriptor 3 (bubblewrap's `--args 3`), so the sandbox's own command
   * line, which the agent can read in /proc, names no host path.
   */
  command(
    argv: string[],
    options?: { show?: Array<{ host: string; seen: string }> },
  ): { file: string; args: string[]; cwd: string; hiddenArgs?: string[] };
  /**
   * Through MCP (the agent's `via`): the candidate's MCP server as the agent starts it, paths as seen in the sandbox.
   * Each tool call runs the CLI through the broker, so it is recorded as that command.
   */
  mcp?: McpServerLaunch;
}

/** How an agent starts the candidate's MCP server: its name in the agent's config, program and arguments. */
export interface McpServerLaunch {
  name: string;
  command: string;
  args: string[];
}

export interface AgentOutcome {
  exitCode: number | null;
  timedOut: boolean;
  /** The agent could not run at all: a harness error, not a failure of the candidate. */
  harnessError?: string;
  /** Host path of the agent's combined output. */
  transcript?: string;
  /** The agent's event stream in one format (presets), with its own report of a failure. */
  parsed?: Transcript;
}

export interface Agent {
  name: string;
  /**
   * What makes two runs the same agent: the preset or argv template and, where known, the program's version or the
   * reference solutions' hash. Journals, resume and --reuse key attempts by it.
   */
  identity(): Promise<string>;
  /** The model as configured (presets.ts modelConfiguration): a hash of what chooses it, and its name where said. */
  model?(): { hash: string; name: string | null };
  run(attempt: AgentRun): Promise<AgentOutcome>;
  /** "mcp": the agent uses the candidate through its MCP server instead of the shell (the target's `interface`). */
  via?: "mcp";
}

/** The model a run used: as configured (a hash and the name where said) and each one the agent reported it served. */
export interface ModelRecord {
  configured: string | null;
  configured_hash: string | null;
  served: string[];
}

/** A run's ModelRecord from its agent and what each attempt or run reported; nothing when neither says anything. */
export function modelRecord(agent: Agent, served: Array<string | undefined>): { model?: ModelRecord } {
  const models = [...new Set(served.filter((m): m is string => !!m))].sort();
  const configured = agent.model?.();
  if (!configured && !models.length) return {};
  return { model: { configured: configured?.name ?? null, configured_hash: configured?.hash ?? null, served: models } };
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

/** Runs argv (through the attempt's sandbox) in its own process group; the timeout and the interrupt kill the group. */
async function spawnInGroup(
  argv: string[],
  attempt: AgentRun,
  options: {
    env?: Record<string, string>;
    stdin?: string;
    show?: Array<{ host: string; seen: string }>;
    fatal?: () => (line: string) => string | undefined;
  } = {},
): Promise<AgentOutcome & { stdout: string; all: string }> {
  const { execa } = await import("execa");
  const command = attempt.command(argv, { show: options.show ?? [] });
  const hidden = command.hiddenArgs;
  const stdin = options.stdin === undefined ? "ignore" : "pipe";
  const child = execa(command.file, hidden ? ["--args", "3", ...command.args] : command.args, {
    cwd: command.cwd,
    env: options.env ?? attempt.env,
    extendEnv: false,
    detached: true,
    stdio: hidden ? [stdin, "pipe", "pipe", "pipe"] : [stdin, "pipe", "pipe"],
    all: true,
    reject: false,
    buffer: true,
  });
  if (hidden) (child.stdio[3] as NodeJS.WritableStream).end(hidden.map((a) => `${a}\0`).join(""));
  // The prompt, when it goes on stdin, is all there is: the agent reads it to the end, as from a pipe.
  if (options.stdin !== undefined) child.stdin!.end(options.stdin);
  let timedOut = false;
  const stop = () => void stopGroup(child.pid, child);
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
  const result = await child;
  clearTimeout(timer);
  attempt.signal.removeEventListener("abort", stop);
  signalGroup(child.pid, "SIGKILL");
  // execa reports a program that could not be spawned with no exit code and the spawn error's code.
  const failedToStart =
    result.exitCode === undefined &&
    ((result as { code?: string }).code === "ENOENT" || /ENOENT|EACCES/.test(String(result.message ?? "")));
  // bubblewrap reports a program it cannot exec on stderr and exits 1 before the agent ever ran.
  const sandboxRefused = /^bwrap: execvp .*: (No such file|Permission denied)/m.exec(String(result.stderr ?? ""));
  return {
    exitCode: result.exitCode ?? null,
    timedOut,
    stdout: String(result.stdout ?? ""),
    all: String(result.all ?? ""),
    ...(failedToStart
      ? { harnessError: `could not start ${argv[0]}: ${String(result.shortMessage ?? result.message).split("\n")[0]}` }
      : sandboxRefused
        ? { harnessError: `could not start ${argv[0]}: ${sandboxRefused[0]}` }
        : fatal
          ? { harnessError: fatal }
          : {}),
  };
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
      return {
        exitCode: outcome.exitCode,
        timedOut: outcome.timedOut,
        ...(outcome.harnessError ? { harnessError: outcome.harnessError } : {}),
        transcript,
      };
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
        return {
          exitCode: null,
          timedOut: false,
          harnessError: `no reference solution for scenario ${attempt.scenarioId}${referenceFile ? ` in ${referenceFile}` : " (no eval-plan.reference.json)"}`,
        };
      if (attempt.mcp) {
        const { replayViaMcp } = await import("./mcp-replay.js");
        return replayViaMcp(plan, attempt, attempt.mcp, (stdout, step) => saveStep(attempt, step, stdout));
      }
      let last: AgentOutcome = { exitCode: 0, timedOut: false };
      const log: string[] = [];
      // Each step goes through the same sealed client as an agent's call would.
      for (const step of plan) {
        const outcome = await spawnInGroup([join(attempt.seen.binDir, step.argv[0]!), ...step.argv.slice(1)], attempt);
        log.push(`$ ${step.argv.join(" ")}`, outcome.all);
        const failed = saveStep(attempt, step, outcome.stdout);
        if (failed) return { exitCode: null, timedOut: false, harnessError: failed };
        last = {
          exitCode: outcome.exitCode,
          timedOut: outcome.timedOut,
          ...(outcome.harnessError ? { harnessError: outcome.harnessError } : {}),
        };
        if (outcome.timedOut || outcome.harnessError) break;
      }
      const transcript = join(attempt.host.workspace, "transcript.txt");
      writeFileSync(transcript, log.join("\n"));
      return { ...last, transcript };
    },
  };
}

/** Writes a preset's files into an attempt's fresh HOME, none over a file already there. */
function seedHome(home: string, files: Record<string, string>): void {
  for (const [path, content] of Object.entries(files)) {
    const target = join(home, path);
    if (path.endsWith("/")) mkdirSync(target, { recursive: true });
    else if (!existsSync(target)) {
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, content);
    }
  }
}

/** The agent program's own report of its version, for its identity; undefined when it gives none within 10 s. */
async function programVersion(program: string): Promise<string | undefined> {
  const { execa } = await import("execa");
  const result = await execa(program, ["--version"], { reject: false, timeout: 10_000, stdin: "ignore" });
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
        return {
          exitCode: null,
          timedOut: false,
          harnessError: `${preset.program} (${preset.name}) is not installed here: npm install -g ${preset.install}, or add it to the project's devDependencies`,
        };
      const config = preset.configFiles(process.env);
      if (attempt.host.home) seedHome(attempt.host.home, preset.homeFiles ?? {});
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
      const parsed = preset.parse(outcome.stdout);
      return {
        exitCode: outcome.exitCode,
        timedOut: outcome.timedOut,
        ...(outcome.harnessError ? { harnessError: outcome.harnessError } : {}),
        transcript,
        parsed,
      };
    },
  };
}

export function agentFor(config: AgentConfig | undefined, referenceFile: string | undefined, root?: string): Agent {
  if (!config || config === "reference") return referenceAgent(referenceFile);
  if (typeof config === "object" && "preset" in config) return presetAgent(PRESETS[config.preset], root, config);
  if (typeof config === "object") return commandAgent(`command:${config.command[0]}`, config.command, config.env);
  return presetAgent(PRESETS[config], root);
}
