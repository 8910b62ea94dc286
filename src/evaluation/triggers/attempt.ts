import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve, sep } from "node:path";
import type { Agent, AgentRun } from "../sandbox/agents.js";
import { agentEnvironment } from "../sandbox/agent-env.js";
import type { Preset } from "../sandbox/presets.js";
import { redactDeep } from "../../core/redact.js";
import { redactTree } from "../sandbox/secrets.js";
import { agentCommand, SEALED_PATHS, type AttemptFolders, type Isolation } from "../sandbox/sandbox.js";
import { SKILL_FOLDER } from "../../core/agent-homes.js";
import { blindness, skillUse } from "./detect.js";
import type { CandidateSkill } from "./skills.js";
import type { TriggerRun } from "./stats.js";

export interface TriggerAttemptContext {
  runDir: string;
  preset: Preset["name"];
  agent: Agent;
  skills: CandidateSkill[];
  isolation: Isolation;
  timeoutMs: number;
  redact(text: string): string;
  /** Host paths the agent never sees, even when its argv names them (the folder holding the query set). */
  hidden: string[];
  signal: AbortSignal;
}

/** Writes each Skill's files under `<project>/<folder>/<name>/`, nowhere else. */
function installSkills(project: string, folder: string, skills: CandidateSkill[]): void {
  for (const skill of skills) {
    for (const [path, text] of Object.entries(skill.files)) {
      const target = resolve(project, folder, skill.name, path);
      // Names come from a tarball or a folder listing; a path that leaves the Skill's folder is never written.
      if (!target.startsWith(resolve(project, folder, skill.name) + sep)) continue;
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, text);
    }
  }
}

/**
 * One query, one run: a fresh project holding only the candidate's Skills, where this agent looks for them; a fresh
 * HOME; the agent sealed in bubblewrap (the same sandbox as an evaluation attempt, sandbox.ts) with the query as its
 * whole prompt. What it loaded is read from its normalized transcript (detect.ts).
 */
export async function runTriggerAttempt(
  ctx: TriggerAttemptContext,
  id: string,
  query: string,
  run: number,
): Promise<TriggerRun> {
  const started = performance.now();
  const workspace = join(ctx.runDir, "attempts", `${id}-${run}`);
  rmSync(workspace, { recursive: true, force: true });
  const folders: AttemptFolders = {
    outputs: join(workspace, "project"),
    assets: join(workspace, "assets"),
    home: join(workspace, "home"),
    tmp: join(workspace, "tmp"),
    bin: join(workspace, "bin"),
    prompt: join(workspace, "prompt.md"),
  };
  for (const d of [folders.outputs, folders.assets, folders.home, folders.tmp, folders.bin])
    mkdirSync(d, { recursive: true });
  writeFileSync(folders.prompt, query);
  installSkills(folders.outputs, SKILL_FOLDER[ctx.preset], ctx.skills);
  const elapsed = () => Math.round(performance.now() - started);
  const sealed = ctx.isolation.kind === "bubblewrap";
  const seen = sealed
    ? {
        workspace: SEALED_PATHS.root,
        outputs: SEALED_PATHS.outputs,
        home: SEALED_PATHS.home,
        tmp: SEALED_PATHS.tmp,
        bin: SEALED_PATHS.bin,
        promptFile: SEALED_PATHS.prompt,
      }
    : {
        workspace,
        outputs: folders.outputs,
        home: folders.home,
        tmp: folders.tmp,
        bin: folders.bin,
        promptFile: folders.prompt,
      };
  const env = agentEnvironment({
    base: process.env,
    blocked: [],
    secrets: [],
    fixed: {
      PATH: `${seen.bin}:${process.env.PATH ?? "/usr/bin:/bin"}`,
      HOME: seen.home,
      TMPDIR: seen.tmp,
      XDG_CONFIG_HOME: `${seen.home}/.config`,
      XDG_CACHE_HOME: `${seen.home}/.cache`,
      XDG_STATE_HOME: `${seen.home}/.local/state`,
      XDG_DATA_HOME: `${seen.home}/.local/share`,
      LANG: "C.UTF-8",
    },
  });
  const hidden = [resolve(ctx.runDir), ...ctx.hidden.map((p) => resolve(p))];
  const command: AgentRun["command"] = (argv, options = {}) =>
    agentCommand({ sealed, folders, hidden }, argv, options.show);
  const attempt: AgentRun = {
    scenarioId: id,
    label: `${id}-${run}`,
    prompt: query,
    seen: {
      workspace: seen.workspace,
      outputs: seen.outputs,
      promptFile: seen.promptFile,
      binDir: seen.bin,
      home: seen.home,
    },
    host: { workspace, outputs: folders.outputs, home: folders.home },
    env,
    timeoutMs: ctx.timeoutMs,
    signal: ctx.signal,
    command,
  };
  const base = { run, loaded: [] as string[], other: [] as string[] };
  const harness = (message: string): TriggerRun => ({
    ...base,
    harness_error: ctx.redact(message).slice(0, 2000),
    duration_ms: elapsed(),
  });
  const outcome = await ctx.agent.run(attempt);
  if (outcome.transcript && existsSync(outcome.transcript))
    writeFileSync(outcome.transcript, ctx.redact(readFileSync(outcome.transcript, "utf8")));
  redactTree(folders.home, ctx.redact);
  redactTree(folders.tmp, ctx.redact);
  if (outcome.harnessError) return harness(outcome.harnessError);
  if (!outcome.parsed)
    return harness(
      "the agent's transcript could not be read: only the agent presets (claude-code, codex, opencode) report the Skills they load",
    );
  const parsed = redactDeep(outcome.parsed, ctx.redact);
  writeFileSync(join(workspace, "transcript.json"), `${JSON.stringify(parsed, null, 1)}\n`);
  if (parsed.error) return harness(parsed.error);
  if (outcome.timedOut) return harness(`the agent did not finish within ${Math.round(ctx.timeoutMs / 1000)} s`);
  if (outcome.exitCode !== 0)
    return harness(`the agent exited with ${outcome.exitCode === null ? "no exit code" : `code ${outcome.exitCode}`}`);
  const names = ctx.skills.map((s) => s.name);
  const use = skillUse(parsed);
  const blind = blindness(parsed, use, names);
  if (blind) return harness(blind);
  return {
    ...base,
    loaded: use.loaded.filter((s) => names.includes(s)),
    other: use.loaded.filter((s) => !names.includes(s)),
    ...(parsed.model ? { model: parsed.model } : {}),
    duration_ms: elapsed(),
  };
}
