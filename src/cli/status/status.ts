import { existsSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { fileSha256 } from "../../core/hash.js";
import { count } from "../../core/plural.js";
import { credentialPrefix } from "../../config/credential.js";
import { planCredentialEnvs } from "../../stages/plan/types.js";
import { findConfig } from "../../config/load.js";
import type { InterConfig } from "../../config/types.js";
import { toInterError } from "../../core/errors.js";
import { expandGlobs } from "../../engine/graph/files.js";
import { openProject, type Project } from "../project.js";
import type { BundleData } from "../../pipeline/bundle.js";
import type { EmitData } from "../../pipeline/emit.js";
import { projectPaths } from "../../config/project-paths.js";
import type { InspectData } from "../../pipeline/inspect.js";
import { placeholderLines } from "../../stages/design/context.js";

/** The credential variables an evaluation needs: its plan's (target.credential_env), else the config's one name. */
function evaluationCredentialEnvs(config: InterConfig, root: string): string[] {
  const plan = config.targets?.eval?.plan;
  if (plan) {
    try {
      const names = planCredentialEnvs(JSON.parse(readFileSync(join(root, plan), "utf8")));
      if (names.length) return names;
    } catch {
      // no plan yet, or one the build will refuse with its own error
    }
  }
  // The variables `inter init` named from the document's security schemes (or a person did): any one scheme's will do.
  const named = Object.values(config.api?.credentials ?? {}).flatMap((v) =>
    typeof v === "string" ? [v] : Object.values(v).filter((n): n is string => typeof n === "string"),
  );
  if (named.length) return [...new Set(named)];
  return [config.api?.credentialEnv ?? `${credentialPrefix(config)}API_KEY`];
}

export interface Blocker {
  stage: "generation" | "evaluation";
  /** The error code the command it blocks fails with (CONTEXT_INCOMPLETE: `inter build` refuses the same brief). */
  code?: string;
  what: string;
  /** Who can clear it: a missing input file, a person's decision or secret, or work an agent can do. */
  requires: "input" | "human" | "agent";
  /** The next action, as a command with its arguments. */
  next: string;
}

export interface StatusReport {
  dir: string;
  config: {
    found: boolean;
    file: string | null;
    valid: boolean;
    error: { code: string; message: string; suggestion: string } | null;
  };
  inputs: Array<{ role: string; pattern: string; files: Array<{ path: string; sha256: string }> }>;
  /** The config loads: the workspace is set up (Intermesh 0.1's `workspace_prepared`). */
  workspace_prepared: boolean;
  /** Nothing blocks `inter build` (0.1's `generation_ready`; `ready` is the same, kept for older readers). */
  generation_ready: boolean;
  ready: boolean;
  /** Nothing blocks `inter run eval`. The report's names are snake_case, as 0.1's contract; `evaluationReady` is the same, kept for older readers. */
  evaluation_ready: boolean;
  evaluationReady: boolean;
  blockers: Blocker[];
  /**
   * `env`: the names, joined; `set`: whether all are set, or with `alternatives` (the config's schemes, without a plan)
   * whether one is; never a value.
   */
  credential: {
    env: string;
    set: boolean;
    alternatives: boolean;
    variables: Array<{ name: string; set: boolean }>;
  } | null;
  /**
   * The design model's readiness, its own state beside generation_ready (which it never blocks): `off` without
   * design.model, `missing` when its key variable is unset, `set` when a build or `inter design suggest` can ask it.
   * The overlay: its file, whether it exists, and how many entries it holds. `keyEnv` (the config field's name) is
   * `key_env`'s alias.
   */
  design_model: {
    state: "off" | "set" | "missing";
    provider?: string;
    model?: string;
    key_env?: string;
    keyEnv?: string;
    overlay: { file: string; present: boolean; groups: number; skills: number };
  } | null;
  /** The configured execution agent: for a real agent, its program and what configures it (file paths, variable names); `configuredBy` is `configured_by`'s older name. */
  agent: { name: string; program: string | null; configured_by: string[]; configuredBy: string[] } | null;
  /** Whether evaluation attempts will be sealed here (bubblewrap), and why not. */
  isolation: { sealed: boolean; detail: string } | null;
  last: {
    candidate: { sha256: string; file: string } | null;
    certification: string | null;
    /** Why the candidate is below Agent-Native: each blocking rule or finding, and the next action. */
    below?: { blocking: Array<{ id: string; why: string }>; receipt: string; next: string };
    /** The last inspection's wire check in short (requests validated, rejected, operations not expressible). */
    wire?: { checked: number; invalid: number; inexpressible: number; notRun?: string };
    /** Why the probes' calls to the API were not judged, with the next action. */
    api_not_judged?: string;
    /** What changed for the agents since the last published candidate (`targets.cli.baseline`), as the last build found it. */
    surface: {
      baseline: string;
      baseline_version: string;
      verdict: string;
      expected_version: string | null;
      version_follows: boolean;
      breaking: number;
      non_breaking: number;
      informational: number;
      highlights: string[];
    } | null;
    /** `not_judged`: every attempt was a harness error. `gateMet` and `finishedAt` are `gate_met`'s and `finished_at`'s older names. */
    /** `model`: the model it ran with, as served where the agent reported it, else as configured (null when unknown). */
    evaluation: {
      verdict: string;
      gate_met: boolean | null;
      not_judged: boolean;
      passed: number;
      attempts: number;
      finished_at: string | null;
      file: string;
      model: string | null;
      gateMet: boolean | null;
      finishedAt: string | null;
    } | null;
  };
  cache: { dir: string; objects: number; bytes: number } | null;
}

/** Placeholders `inter eval new` leaves for a person or agent to replace (`inter init`'s: stages/design/context.ts). */
const PLAN_FILL = /<<FILL ME/;

/** The data the task's newest record holds (what its run returned), typed by the task that wrote it. */
function latestData<T>(project: Project, task: string): Partial<T> | undefined {
  return project.store.latestRecord(task)?.data as Partial<T> | undefined;
}

/** Where a project stands, without running anything: read from the config, the inputs, the cache and the outputs. */
export async function projectStatus(options: { cwd: string; config?: string }): Promise<StatusReport> {
  const cwd = resolve(options.cwd);
  const file = options.config ? resolve(cwd, options.config) : (findConfig(cwd) ?? null);
  const report = emptyReport(cwd, file);
  if (!report.config.found) {
    report.blockers.push({
      stage: "generation",
      code: "WORKSPACE_NOT_FOUND",
      what: "no intermesh.config.ts here or above",
      requires: "agent",
      next: "inter init --name <Product> --openapi <path/to/openapi.yaml>",
    });
    return report;
  }
  let project: Project;
  try {
    project = await openProject({ cwd, config: options.config });
  } catch (error) {
    const err = toInterError(error);
    report.config.error = { code: err.code, message: err.message, suggestion: err.suggestion };
    report.blockers.push({
      stage: "generation",
      code: err.code,
      what: `the config does not load (${err.code}): ${err.message}`,
      requires: "agent",
      next: `inter build --json  # after: ${err.suggestion}`,
    });
    return report;
  }
  report.config.valid = true;
  report.workspace_prepared = true;
  const { config, root } = project.loaded;
  const block = (b: Blocker) => report.blockers.push(b);
  report.inputs = await readInputs(config, root);
  inputBlockers(report.inputs, config, cwd, root, block);
  report.credential = credentialStatus(config, root, block);
  report.design_model = designModelStatus(config, root);
  const agent = config.targets?.eval?.agent ?? (config.targets?.eval ? "reference" : undefined);
  if (agent !== undefined) {
    report.agent = await agentStatus(agent, root, block);
    const { detectIsolation } = await import("../../evaluation/sandbox/sandbox.js");
    const isolation = await detectIsolation();
    report.isolation =
      isolation.kind === "bubblewrap"
        ? { sealed: true, detail: `bubblewrap ${isolation.version}` }
        : { sealed: false, detail: isolation.reason };
  }
  report.last = lastOutputs(project, cwd);
  const objects = project.store.listObjects();
  report.cache = {
    dir: relative(cwd, project.cacheDir) || ".",
    objects: objects.length,
    bytes: objects.reduce((n, o) => n + o.size, 0),
  };
  report.ready = !report.blockers.some((b) => b.stage === "generation");
  report.generation_ready = report.ready;
  report.evaluation_ready = report.ready && !report.blockers.some((b) => b.stage === "evaluation");
  report.evaluationReady = report.evaluation_ready;
  return report;
}

function emptyReport(cwd: string, file: string | null): StatusReport {
  return {
    dir: cwd,
    config: { found: Boolean(file && existsSync(file)), file, valid: false, error: null },
    inputs: [],
    workspace_prepared: false,
    generation_ready: false,
    ready: false,
    evaluation_ready: false,
    evaluationReady: false,
    blockers: [],
    credential: null,
    design_model: null,
    agent: null,
    isolation: null,
    last: { candidate: null, certification: null, surface: null, evaluation: null },
    cache: null,
  };
}

type Config = Project["loaded"]["config"];

/** The config's inputs by role, each pattern with the files it matches and their hashes. */
async function readInputs(config: Config, root: string): Promise<StatusReport["inputs"]> {
  const roles: Array<[string, string[]]> = [
    ["openapi", [config.inputs.openapi].flat()],
    ["context", config.inputs.context ? [config.inputs.context].flat() : []],
    ...(config.targets?.eval ? [["plan", [config.targets.eval.plan]] as [string, string[]]] : []),
  ];
  const expanded = await expandGlobs(
    root,
    roles.flatMap(([, patterns]) => patterns),
  );
  return roles.flatMap(([role, patterns]) =>
    patterns.map((pattern) => ({
      role,
      pattern,
      files: (expanded.get(pattern) ?? []).map((p) => ({ path: p, sha256: fileSha256(join(root, p)) })),
    })),
  );
}

/** What the inputs lack: a missing document, brief or plan, placeholders left in the brief or the plan, no plan. */
function inputBlockers(
  inputs: StatusReport["inputs"],
  config: Config,
  cwd: string,
  root: string,
  block: (b: Blocker) => void,
): void {
  const rel = (p: string) => relative(cwd, join(root, p)) || p;
  for (const input of inputs) {
    const at = rel(input.pattern);
    if (input.role === "openapi" && !input.files.length)
      block({
        stage: "generation",
        code: "INPUT_NOT_FOUND",
        what: `the OpenAPI document ${input.pattern} does not exist`,
        requires: "input",
        next: `cp <your-openapi.yaml> ${at}`,
      });
    if (input.role === "context" && !input.files.length)
      block({
        stage: "generation",
        code: "INPUT_NOT_FOUND",
        what: `the product brief ${input.pattern} does not exist`,
        requires: "agent",
        next: `inter init${cwd === root ? "" : ` --dir ${relative(cwd, root) || "."}`}  # writes a skeleton; then fill it in`,
      });
    if (input.role === "context") {
      // The same check `inter build` refuses with (pipeline/skills.ts): the same code, the same lines.
      const todos = input.files
        .map((f) => ({ path: f.path, lines: placeholderLines(readFileSync(join(root, f.path), "utf8")) }))
        .filter((f) => f.lines.length);
      const where = todos
        .map(
          (f) =>
            `${f.path === input.pattern ? "" : `${f.path} `}line${f.lines.length > 1 ? "s" : ""} ${f.lines.join(", ")}`,
        )
        .join("; ");
      if (todos.length)
        block({
          stage: "generation",
          code: "CONTEXT_INCOMPLETE",
          what: `${input.pattern} still has TODO placeholders (${where})`,
          requires: "agent",
          next: `$EDITOR ${at}  # replace every TODO (Skill intermesh-context); a person confirms the rules`,
        });
    }
    if (input.role === "plan" && !input.files.length)
      block({
        stage: "evaluation",
        code: "INPUT_NOT_FOUND",
        what: `the evaluation plan ${input.pattern} does not exist`,
        requires: "agent",
        next: `inter eval new ${rel(input.pattern).replace(/\/[^/]*$/, "") || "."} --candidate ${rel(projectPaths(config).candidate)}`,
      });
    if (input.role === "plan" && input.files.some((f) => PLAN_FILL.test(readFileSync(join(root, f.path), "utf8"))))
      block({
        stage: "evaluation",
        what: `${input.pattern} still has <<FILL ME>> placeholders`,
        requires: "agent",
        next: `inter eval validate ${at}`,
      });
  }
  if (!config.targets?.eval)
    block({
      stage: "evaluation",
      what: "no targets.eval in the config",
      requires: "agent",
      next: `inter eval new evals --candidate ${rel(projectPaths(config).candidate)}  # then set targets.eval.plan in the config`,
    });
}

/**
 * The API's credential variables: the evaluation passes those its plan names (target.credential_env); without a plan,
 * the config's. A plan's variables are all needed; the config's schemes are alternatives, of which one will do.
 */
function credentialStatus(config: Config, root: string, block: (b: Blocker) => void): StatusReport["credential"] {
  const names = evaluationCredentialEnvs(config, root);
  const unset = names.filter((name) => !process.env[name]);
  const alternatives = !config.targets?.eval?.plan && Object.keys(config.api?.credentials ?? {}).length > 1;
  const missing = alternatives ? (unset.length === names.length ? unset : []) : unset;
  if (missing.length && config.targets?.eval)
    block({
      stage: "evaluation",
      what: `${alternatives ? `none of ${missing.join(", ")} is set` : `${missing.join(", ")} ${missing.length === 1 ? "is" : "are"} not set`}: the evaluation's calls to the API cannot authenticate`,
      requires: "human",
      next: (alternatives ? missing.slice(0, 1) : missing).map((name) => `export ${name}=<its value>`).join("; "),
    });
  return {
    env: names.join(", "),
    set: !missing.length,
    alternatives,
    variables: names.map((name) => ({ name, set: Boolean(process.env[name]) })),
  };
}

/** The design model, if any, whether its key is set, and the reviewed overlay it writes. */
function designModelStatus(config: Config, root: string): StatusReport["design_model"] {
  const overlayFile = projectPaths(config).overlay;
  let overlay = { file: overlayFile, present: false, groups: 0, skills: 0 };
  try {
    const parsed = JSON.parse(readFileSync(join(root, overlayFile), "utf8"));
    overlay = {
      file: overlayFile,
      present: true,
      groups: Object.keys(parsed.groups ?? {}).length,
      skills: Object.keys(parsed.skills ?? {}).length,
    };
  } catch {
    // absent or unreadable: the build says which (OVERLAY_INVALID) when it reads it
    overlay.present = existsSync(join(root, overlayFile));
  }
  const designModel = config.design?.model;
  return designModel
    ? {
        state: designModel.keyEnv === undefined || process.env[designModel.keyEnv] ? "set" : "missing",
        provider: designModel.provider,
        model: designModel.model,
        ...(designModel.keyEnv !== undefined ? { key_env: designModel.keyEnv, keyEnv: designModel.keyEnv } : {}),
        overlay,
      }
    : { state: "off", overlay };
}

type EvalAgent = NonNullable<NonNullable<Config["targets"]>["eval"]>["agent"] | "reference";

/** The evaluation's agent: for a preset, whether its program is found and what configures its model. */
async function agentStatus(
  agent: NonNullable<EvalAgent>,
  root: string,
  block: (b: Blocker) => void,
): Promise<StatusReport["agent"]> {
  const preset =
    typeof agent === "string"
      ? agent === "reference"
        ? undefined
        : agent
      : "preset" in agent
        ? agent.preset
        : undefined;
  if (!preset)
    return {
      name: typeof agent === "string" ? agent : "command" in agent ? `command:${agent.command[0]}` : agent.preset,
      program: null,
      configured_by: [],
      configuredBy: [],
    };
  const { presetNamed, presetReadiness } = await import("../../evaluation/sandbox/presets.js");
  const known = presetNamed(preset);
  const ready = presetReadiness(known, process.env, root);
  if (!ready.program)
    block({
      stage: "evaluation",
      what: `the agent ${preset} is not installed (${known.program} is not on PATH)`,
      requires: "human",
      next: `npm install -g ${known.install}`,
    });
  else if (!ready.configuredBy.length)
    block({
      stage: "evaluation",
      what: `${preset} has no model or login configured: no configuration file and none of ${known.configEnv.join(", ")} is set`,
      requires: "human",
      next: known.configureHint,
    });
  return { name: preset, program: ready.program, configured_by: ready.configuredBy, configuredBy: ready.configuredBy };
}

/** What the last build and evaluation left: the candidate, its surface against the baseline, its certification. */
function lastOutputs(project: Project, cwd: string): StatusReport["last"] {
  const { config, root } = project.loaded;
  const last: StatusReport["last"] = { candidate: null, certification: null, surface: null, evaluation: null };
  const bundle = latestData<BundleData>(project, "bundle");
  if (bundle?.candidate) last.candidate = { sha256: bundle.candidate, file: bundle.file ?? "" };
  const surface = config.targets?.cli?.baseline ? latestData<EmitData>(project, "emit")?.baseline : undefined;
  if (surface?.baseline === config.targets?.cli?.baseline && surface) {
    last.surface = {
      baseline: surface.baseline,
      baseline_version: surface.baseline_version,
      verdict: surface.verdict,
      expected_version: surface.expected_version ?? null,
      version_follows: surface.version_follows,
      breaking: surface.counts.breaking,
      non_breaking: surface.counts.non_breaking,
      informational: surface.counts.informational,
      highlights: surface.highlights,
    };
  }
  const inspected = latestData<InspectData>(project, "inspect");
  last.certification = inspected?.level ?? null;
  // Why it is below Agent-Native, and what to do (the receipt names every failing rule).
  if (inspected?.blocking?.length)
    last.below = {
      blocking: inspected.why ?? inspected.blocking.map((id) => ({ id, why: "see the receipt" })),
      receipt: inspected.receipt ?? "dist/receipt.json",
      next: "Fix what each names (the receipt has the evidence), then run `inter build` again.",
    };
  if (inspected?.wire) last.wire = inspected.wire;
  if (inspected?.apiNotJudged) last.api_not_judged = inspected.apiNotJudged;
  last.evaluation = evaluationSummary(join(root, projectPaths(config).evalDir, "results.json"), cwd);
  return last;
}

/** The last evaluation's verdict, from its results.json; null when there is none or it cannot be read. */
function evaluationSummary(resultsFile: string, cwd: string): StatusReport["last"]["evaluation"] {
  if (!existsSync(resultsFile)) return null;
  try {
    const r = JSON.parse(readFileSync(resultsFile, "utf8"));
    const gateMet = r.gate?.met ?? null;
    const finishedAt = r.finished_at ?? null;
    const notJudged =
      Array.isArray(r.attempts) &&
      r.attempts.length > 0 &&
      r.attempts.every((a: { status?: string }) => a?.status === "error");
    const served: unknown = r.agent?.model?.served;
    const model =
      Array.isArray(served) && served.length
        ? served.filter((m) => typeof m === "string").join(" + ")
        : typeof r.agent?.model?.configured === "string"
          ? r.agent.model.configured
          : null;
    return {
      verdict: r.verdict,
      gate_met: gateMet,
      not_judged: notJudged,
      passed: r.summary?.passed ?? 0,
      attempts: r.summary?.attempts ?? 0,
      finished_at: finishedAt,
      file: relative(cwd, resultsFile),
      model,
      gateMet,
      finishedAt,
    };
  } catch {
    // an unreadable results file is as good as none
    return null;
  }
}

export function statusText(r: StatusReport): string {
  const mib = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MiB`;
  const lines = [
    `config      ${r.config.found ? `${r.config.file} — ${r.config.valid ? "valid" : `invalid (${r.config.error?.code})`}` : "not found"}`,
    // A pattern that names one file is said once; a glob is followed by what it matched.
    ...r.inputs.map(
      (i) =>
        `${i.role.padEnd(11)} ${i.files.length === 1 && i.files[0]!.path === i.pattern ? "" : `${i.pattern}: `}${i.files.length ? i.files.map((f) => `${f.path} sha256:${f.sha256.slice(0, 12)}…`).join(", ") : "MISSING"}`,
    ),
    ...(r.credential
      ? [
          r.credential.variables.length > 1
            ? `credential  ${r.credential.variables.map((v) => `${v.name} ${v.set ? "is set" : "is not set"}`).join(", ")}${r.credential.alternatives ? ` (the config's schemes are alternatives: one scheme's credentials will do)` : ""}`
            : `credential  ${r.credential.env} ${r.credential.set ? "is set" : "is not set"}`,
        ]
      : []),
    ...(r.design_model
      ? [
          `design      ${r.design_model.state === "off" ? "rules" : `rules + model ${r.design_model.model} (${r.design_model.provider}): ${r.design_model.key_env} ${r.design_model.state === "set" ? "is set" : "is NOT set (the overlay applies as it is)"}`}; overlay ${r.design_model.overlay.present ? `${r.design_model.overlay.file} (${count(r.design_model.overlay.groups, "group")}, ${count(r.design_model.overlay.skills, "Skill")})` : "none"}`,
        ]
      : []),
    ...(r.agent
      ? [
          `agent       ${r.agent.name}${r.agent.program ? ` (${r.agent.program}${r.agent.configured_by.length ? `; configured by ${r.agent.configured_by.join(", ")}` : "; NOT configured"})` : r.agent.name === "reference" || r.agent.name.startsWith("command:") ? "" : " (NOT installed)"}`,
        ]
      : []),
    ...(r.isolation
      ? [
          `isolation   ${r.isolation.sealed ? `attempts sealed (${r.isolation.detail})` : `attempts UNSEALED: ${r.isolation.detail}; evidence could be forged`}`,
        ]
      : []),
    `candidate   ${r.last.candidate ? `sha256:${r.last.candidate.sha256.slice(0, 12)}… (${r.last.candidate.file})${r.last.certification ? `, certified ${r.last.certification}` : ""}` : "none built yet"}`,
    ...(r.last.below
      ? [
          `            below Agent-Native because (${r.last.below.receipt}):`,
          ...r.last.below.blocking.map((b) => `              ${b.id}: ${b.why}`),
          `            next: ${r.last.below.next}`,
        ]
      : []),
    ...(r.last.api_not_judged ? [`api         not judged: ${r.last.api_not_judged}`] : []),
    ...(r.last.wire
      ? [
          `wire        ${r.last.wire.notRun ? "requests not validated" : `${count(r.last.wire.checked, "sampled request")} validated, ${r.last.wire.invalid} rejected`}; ${count(r.last.wire.inexpressible, "operation")} cannot be expressed`,
        ]
      : []),
    ...(r.last.surface
      ? [
          `since       ${r.last.surface.baseline} (${r.last.surface.baseline_version}): ${r.last.surface.verdict}, ${count(r.last.surface.breaking, "breaking change")}, ${r.last.surface.non_breaking} non-breaking, ${r.last.surface.informational} informational${r.last.surface.version_follows ? "" : `; VERSION_NOT_BUMPED: should be at least ${r.last.surface.expected_version}`}`,
          ...r.last.surface.highlights.map((h) => `              ${h}`),
        ]
      : []),
    `evaluation  ${r.last.evaluation ? `${r.last.evaluation.not_judged ? "NOT JUDGED (every attempt was a harness error)" : `${r.last.evaluation.verdict}${r.last.evaluation.gate_met === null ? "" : r.last.evaluation.gate_met ? ", gate met" : ", gate NOT met"}`}: ${r.last.evaluation.passed}/${count(r.last.evaluation.attempts, "attempt")}${r.last.evaluation.model ? `, model ${r.last.evaluation.model}` : ""} (${r.last.evaluation.file})` : "none run yet"}`,
    ...(r.cache ? [`cache       ${count(r.cache.objects, "object")}, ${mib(r.cache.bytes)} in ${r.cache.dir}`] : []),
    "",
    `generation  ${r.ready ? "ready" : "BLOCKED"}`,
    `evaluation  ${r.evaluation_ready ? "ready" : "BLOCKED"}`,
    ...r.blockers.map(
      (b) => `  ✗ [${b.stage}, needs ${b.requires}] ${b.code ? `${b.code}: ` : ""}${b.what}\n      next: ${b.next}`,
    ),
  ];
  return lines.join("\n");
}
