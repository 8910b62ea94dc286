import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { redactDeep } from "../../core/redact.js";
import { agentEnvironment } from "./agent-env.js";
import type { AgentOutcome, AgentRun, McpServerLaunch } from "./agent-run.js";
import { redactTree } from "./redact-files.js";
import { agentCommand, SEALED_PATHS, type AttemptFolders, type Isolation } from "./sandbox.js";
import type { Transcript } from "./transcript.js";

/** A run's folders as the agent sees them: SEALED_PATHS when sealed, the host folders themselves when not. */
export interface SeenPaths {
  workspace: string;
  outputs: string;
  assets: string;
  home: string;
  tmp: string;
  bin: string;
  promptFile: string;
}

/** Where a run happens and what it starts with; everything else the agent gets is chosen by prepareRun. */
export interface RunPlace {
  /** The run's host folder, made afresh (anything there before is removed). */
  workspace: string;
  /** The agent's working folder inside it: `outputs` (attempts) or `project` (trigger runs). */
  workFolder?: string;
  isolation: Isolation;
  /**
   * "fresh": the run's own HOME, temp folder and XDG folders (attempts, trigger runs). "runner": the runner's own
   * environment, unsealed, for an agent that needs nothing of the run but its prompt (a blind judge).
   */
  home: "fresh" | "runner";
  /** Read-only inputs copied into the run's assets folder. */
  assetsFrom?: string;
}

/** What the agent is given in a prepared run, known only once the candidate and its broker are up. */
export interface RunBrief {
  scenarioId: string;
  label: string;
  prompt: string;
  /** The broker's socket on the host (evaluation attempts): shown in the sandbox at SEALED_PATHS.socket. */
  socket?: string;
  /** Whether the run's bin folder (the broker's client) is first on the agent's PATH; through MCP it is not. */
  binOnPath: boolean;
  mcp?: McpServerLaunch;
  /** Variable names never passed to the agent (credentials, the base URL's, the services'). */
  blocked: string[];
  /** Values never passed to the agent, whatever their variable is called (secrets.ts, `api`). */
  secrets: string[];
  /** Host paths never shown to the agent even when its argv names them: the run's folder of records, the plan. */
  hidden: string[];
  timeoutMs: number;
  signal: AbortSignal;
}

/** What is left of a run once it is made safe to keep: its transcript's text, and its parsed stream, redacted. */
export interface ScrubbedRun {
  transcriptText: string;
  parsed?: Transcript;
}

export interface PreparedRun {
  workspace: string;
  sealed: boolean;
  folders: AttemptFolders;
  seen: SeenPaths;
  /** Writes the prompt and makes the AgentRun an adapter (agents.ts) runs: environment, sandboxed commands. */
  agentRun(brief: RunBrief): AgentRun;
  /**
   * Redacts what the agent left (its transcript, its HOME and temp folder, where session logs may hold part of a
   * key) in place, and writes its parsed stream as transcript.json, redacted.
   */
  scrub(outcome: AgentOutcome, redact: (text: string) => string): ScrubbedRun;
}

/**
 * The one way a run of an agent is set up, for evaluation attempts (and those through MCP), trigger runs and blind
 * judging alike: fresh folders, the sandbox's view of them, the agent's environment without the credentials, the
 * broker's socket where one is, and the redaction of everything the run leaves.
 */
export function prepareRun(place: RunPlace): PreparedRun {
  const { workspace } = place;
  rmSync(workspace, { recursive: true, force: true });
  const folders: AttemptFolders = {
    outputs: join(workspace, place.workFolder ?? "outputs"),
    assets: join(workspace, "assets"),
    home: join(workspace, "home"),
    tmp: join(workspace, "tmp"),
    bin: join(workspace, "bin"),
    prompt: join(workspace, "prompt.md"),
  };
  for (const d of [folders.outputs, folders.assets, folders.home, folders.tmp, folders.bin])
    mkdirSync(d, { recursive: true });
  if (place.assetsFrom && existsSync(place.assetsFrom)) cpSync(place.assetsFrom, folders.assets, { recursive: true });
  const sealed = place.home === "fresh" && place.isolation.kind === "bubblewrap";
  const seen: SeenPaths = sealed
    ? {
        workspace: SEALED_PATHS.root,
        outputs: SEALED_PATHS.outputs,
        assets: SEALED_PATHS.assets,
        home: SEALED_PATHS.home,
        tmp: SEALED_PATHS.tmp,
        bin: SEALED_PATHS.bin,
        promptFile: SEALED_PATHS.prompt,
      }
    : {
        workspace,
        outputs: folders.outputs,
        assets: folders.assets,
        home: folders.home,
        tmp: folders.tmp,
        bin: folders.bin,
        promptFile: folders.prompt,
      };
  const fixed = (binOnPath: boolean): Record<string, string> =>
    place.home === "runner"
      ? {}
      : {
          PATH: binOnPath
            ? `${seen.bin}:${process.env.PATH ?? "/usr/bin:/bin"}`
            : (process.env.PATH ?? "/usr/bin:/bin"),
          HOME: seen.home,
          TMPDIR: seen.tmp,
          XDG_CONFIG_HOME: `${seen.home}/.config`,
          XDG_CACHE_HOME: `${seen.home}/.cache`,
          XDG_STATE_HOME: `${seen.home}/.local/state`,
          XDG_DATA_HOME: `${seen.home}/.local/share`,
          LANG: "C.UTF-8",
        };
  return {
    workspace,
    sealed,
    folders,
    seen,
    agentRun(brief) {
      writeFileSync(folders.prompt, brief.prompt);
      const hidden = brief.hidden.map((p) => resolve(p));
      const socket = brief.socket;
      return {
        scenarioId: brief.scenarioId,
        label: brief.label,
        prompt: brief.prompt,
        seen: {
          workspace: seen.workspace,
          outputs: seen.outputs,
          promptFile: seen.promptFile,
          binDir: seen.bin,
          home: seen.home,
        },
        host: { workspace, outputs: folders.outputs, ...(place.home === "fresh" ? { home: folders.home } : {}) },
        env: agentEnvironment({
          base: process.env,
          blocked: brief.blocked,
          secrets: brief.secrets,
          fixed: fixed(brief.binOnPath),
        }),
        timeoutMs: brief.timeoutMs,
        signal: brief.signal,
        command: (argv, options = {}) =>
          agentCommand({ sealed, folders, hidden, ...(socket ? { socket } : {}) }, argv, options.show),
        ...(brief.mcp ? { mcp: brief.mcp } : {}),
      };
    },
    scrub(outcome, redact) {
      let transcriptText = "";
      if (outcome.transcript && existsSync(outcome.transcript)) {
        transcriptText = redact(readFileSync(outcome.transcript, "utf8"));
        writeFileSync(outcome.transcript, transcriptText);
      }
      // Only the run's own folders: a judge's HOME is the runner's, never rewritten.
      redactTree(folders.home, redact);
      redactTree(folders.tmp, redact);
      if (!outcome.parsed) return { transcriptText };
      const parsed = redactDeep(outcome.parsed, redact);
      writeFileSync(join(workspace, "transcript.json"), `${JSON.stringify(parsed, null, 1)}\n`);
      return { transcriptText, parsed };
    },
  };
}
