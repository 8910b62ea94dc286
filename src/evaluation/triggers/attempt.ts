import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join, resolve, sep } from "node:path";
import type { Agent } from "../sandbox/agent-run.js";
import { PRESET_NAMES, presetNamed, seedFiles, type Preset } from "../sandbox/presets.js";
import { prepareRun } from "../sandbox/prepare-run.js";
import type { Isolation } from "../sandbox/sandbox.js";
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
  /**
   * Credential variables (the candidate's, the plan's where there is one): never in the agent's environment, and
   * their values never in what the run writes down.
   */
  credentials: string[];
  /** Values the agent's environment never holds, whatever their variable is called (secrets.ts, `api`). */
  secrets: string[];
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
 * HOME; the agent sealed in bubblewrap (the same sandbox as an evaluation attempt: sandbox/prepare-run.ts) with the query as its
 * whole prompt. What it loaded is read from its normalized transcript (detect.ts).
 */
export async function runTriggerAttempt(
  ctx: TriggerAttemptContext,
  id: string,
  query: string,
  run: number,
): Promise<TriggerRun> {
  const started = performance.now();
  const prepared = prepareRun({
    workspace: join(ctx.runDir, "attempts", `${id}-${run}`),
    workFolder: "project",
    isolation: ctx.isolation,
    home: "fresh",
  });
  const preset = presetNamed(ctx.preset);
  installSkills(prepared.folders.outputs, preset.skillFolders[0]!, ctx.skills);
  seedFiles(prepared.folders.outputs, preset.skillFolderFiles ?? {});
  const elapsed = () => Math.round(performance.now() - started);
  const attempt = prepared.agentRun({
    scenarioId: id,
    label: `${id}-${run}`,
    prompt: query,
    binOnPath: true,
    blocked: ctx.credentials,
    secrets: ctx.secrets,
    hidden: [ctx.runDir, ...ctx.hidden],
    timeoutMs: ctx.timeoutMs,
    signal: ctx.signal,
  });
  const harness = (message: string): TriggerRun => ({
    kind: "harness-error",
    run,
    loaded: [],
    other: [],
    harness_error: ctx.redact(message).slice(0, 2000),
    duration_ms: elapsed(),
  });
  const outcome = await ctx.agent.run(attempt);
  const { parsed } = prepared.scrub(outcome, ctx.redact);
  switch (outcome.kind) {
    case "harness-error":
      return harness(outcome.message);
    case "finished":
      break;
  }
  if (!parsed)
    return harness(
      `the agent's transcript could not be read: only the agent presets (${PRESET_NAMES.join(", ")}) report the Skills they load`,
    );
  if (parsed.error) return harness(parsed.error);
  if (outcome.timedOut) return harness(`the agent did not finish within ${Math.round(ctx.timeoutMs / 1000)} s`);
  if (outcome.exitCode !== 0)
    return harness(`the agent exited with ${outcome.exitCode === null ? "no exit code" : `code ${outcome.exitCode}`}`);
  const names = ctx.skills.map((s) => s.name);
  const use = skillUse(parsed);
  const blind = blindness(parsed, use, names);
  if (blind) return harness(blind);
  return {
    kind: "judged",
    run,
    loaded: use.loaded.filter((s) => names.includes(s)),
    other: use.loaded.filter((s) => !names.includes(s)),
    ...(parsed.model ? { model: parsed.model } : {}),
    duration_ms: elapsed(),
  };
}
