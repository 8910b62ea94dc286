import type { Transcript } from "./transcript.js";

/** A command line wrapped to run in a run's sandbox (or as is, unsealed), starting in its working folder. */
export interface SandboxedCommand {
  file: string;
  args: string[];
  cwd: string;
  /**
   * Go to the program through file descriptor 3 (bubblewrap's `--args 3`), so the sandbox's own command line, which
   * the agent can read in /proc, names no host path.
   */
  hiddenArgs?: string[];
}

/** A file of the agent's own (its config, its key file) and where the agent sees it. */
export interface ShownFile {
  host: string;
  seen: string;
}

/** One run of an agent as an adapter (agents.ts) gets it: made by prepareRun (prepare-run.ts) for every kind of run. */
export interface AgentRun {
  scenarioId: string;
  /** `<scenario>-<repetition>`: the `{attempt}` placeholder. */
  label: string;
  prompt: string;
  /** Paths as the agent sees them (inside the sandbox when sealed). */
  seen: { workspace: string; outputs: string; promptFile: string; binDir: string; home: string };
  /**
   * Paths on the host, where inter keeps the transcript and reads the outputs; never shown to the agent. `home`: the
   * run's own fresh HOME, when it has one (a judge runs in yours).
   */
  host: { workspace: string; outputs: string; home?: string };
  env: Record<string, string>;
  timeoutMs: number;
  signal: AbortSignal;
  /** Wraps a command line so it runs sealed in the run (or as is, unsealed), starting in the outputs folder. */
  command(argv: string[], options?: { show?: ShownFile[] }): SandboxedCommand;
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

/** What the agent left behind, whatever became of the run. */
interface AgentTrace {
  exitCode: number | null;
  timedOut: boolean;
  /** Host path of the agent's combined output. */
  transcript?: string;
  /** The agent's event stream in one format (presets), with its own report of a failure. */
  parsed?: Transcript;
}

/**
 * How one agent run ended: it ran to its end (whatever its exit code or its own report), or the harness could not run
 * it at all (no such program, the sandbox refused it, a fatal line from the agent) — a harness error, never a failure
 * of the candidate. Every consumer switches on `kind`.
 */
export type AgentOutcome =
  ({ kind: "finished" } & AgentTrace) | ({ kind: "harness-error"; message: string } & AgentTrace);

/** A harness error before the agent ever ran. */
export const notRun = (message: string): AgentOutcome => ({
  kind: "harness-error",
  message,
  exitCode: null,
  timedOut: false,
});

export interface Agent {
  name: string;
  /**
   * What makes two runs the same agent: the preset or argv template and, where known, the program's version or the
   * reference solutions' hash. Journals, resume and --reuse key attempts by it.
   */
  identity(): Promise<string>;
  /** The model as configured (presets.ts modelConfiguration): a hash of what chooses it, and its name where said. */
  model?(): { hash: string; name: string | null };
  run(run: AgentRun): Promise<AgentOutcome>;
  /** "mcp": the agent uses the candidate through its MCP server instead of the shell (the target's `interface`). */
  via?: "mcp";
}
