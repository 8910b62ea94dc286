import { readFileSync } from "node:fs";
import { join } from "node:path";
import { InterError } from "../core/errors.js";
import { count } from "../core/plural.js";
import type { CommandsPlan, SkillsPlan } from "../stages/design/types.js";
import type { OperationModel } from "../stages/openapi/model.js";
import { COMMANDS_FILE } from "../pipeline/commands.js";
import { projectPaths } from "../config/project-paths.js";
import { OPERATIONS_FILE } from "../pipeline/openapi.js";
import { SKILLS_FILE } from "../pipeline/skills.js";
import { executeGraph } from "./execute-graph.js";
import type { Project } from "./project.js";

export interface SuggestRun {
  overlay: string;
  model: string;
  provider: string;
  /** Questions sent to the model this run; 0 when the overlay already answered every current one. */
  requests: number;
  /** Requests answered with a usable object. */
  answered: number;
  /** Questions the overlay already answered (key still current): not asked. */
  current: number;
  /** Entries (commands, Skills) written to the overlay from this run's answers. */
  recorded: number;
  /** Parts of this run's answers not written, each with its place and reason. */
  rejected: Array<{ entry: string; reason: string }>;
  failed: Array<{ entry: string; code: string; message: string }>;
  tokens: { input: number; output: number };
  costUsd: number | null;
  costBasis: string;
  durationMs: number;
  written: boolean;
}

const readJson = <T>(root: string, path: string): T => JSON.parse(readFileSync(join(root, path), "utf8")) as T;

/**
 * Brings the rules' design up to date (from the cache when unchanged), asks the configured model only what the
 * overlay does not answer yet, and writes the overlay whole. Progress goes to stderr, one line per group and Skill.
 */
export async function runSuggest(
  project: Project,
  options: { refresh: boolean; json: boolean; concurrency: number; maxTokens?: number; maxCostUsd?: number },
): Promise<SuggestRun> {
  const { config, root } = project.loaded;
  const settings = config.design?.model;
  if (!settings) {
    throw new InterError(
      "USAGE_ERROR",
      `${project.loaded.file}: no design.model is configured, so there is no model to ask.`,
      'Add design: { model: { provider: "openai-compatible", model: "deepseek-chat", baseUrl: "https://api.deepseek.com/v1", keyEnv: "DEEPSEEK_API_KEY" } } to the config (docs/overlay.md).',
      { field: "design.model" },
    );
  }
  const started = performance.now();
  await executeGraph(project, ["commands", "skills"], { json: true, concurrency: options.concurrency, force: false });
  const [{ configuredModelClient, Budget, estimateCost }, { suggestOverlay }, { readOverlay, writeOverlay }] =
    await Promise.all([
      import("../model/client.js"),
      import("../stages/design/suggest.js"),
      import("../stages/design/overlay-file.js"),
    ]);
  const file = projectPaths(config).overlay;
  const current = await readOverlay(root, file);
  const client = configuredModelClient(settings, process.env, {
    onRetry: (info) => {
      if (!options.json)
        process.stderr.write(
          `  ↻ ${info.reason}; retrying in ${Math.round(info.delayMs)} ms (attempt ${info.attempt + 1})\n`,
        );
    },
  });
  const budget = new Budget({
    maxTokens: options.maxTokens ?? settings.maxTokens ?? 2_000_000,
    ...((options.maxCostUsd ?? settings.maxCostUsd) ? { maxCostUsd: options.maxCostUsd ?? settings.maxCostUsd } : {}),
  });
  const deadline = AbortSignal.timeout(settings.deadlineMs ?? 900_000);
  const key = settings.keyEnv !== undefined ? process.env[settings.keyEnv] : undefined;
  const progress = (event: {
    kind: string;
    name: string;
    state: string;
    usage?: { inputTokens: number; outputTokens: number };
    error?: string;
  }) => {
    if (options.json || event.state === "asked") return;
    if (event.state === "rejected")
      return void process.stderr.write(`  ✖ ${event.name} not recorded: ${event.error}\n`);
    const mark = event.state === "answered" ? "✔" : event.state === "kept" ? "·" : "✖";
    const detail =
      event.state === "answered" && event.usage
        ? ` (${event.usage.inputTokens} in, ${event.usage.outputTokens} out)`
        : event.state === "kept"
          ? " (current in the overlay, not asked)"
          : event.error
            ? ` ${event.error}`
            : "";
    process.stderr.write(`${mark} ${event.kind} ${event.name}${detail}\n`);
  };
  const model = readJson<OperationModel>(root, OPERATIONS_FILE);
  const commands = readJson<CommandsPlan>(root, COMMANDS_FILE);
  const skills = readJson<SkillsPlan>(root, SKILLS_FILE);
  let result: Awaited<ReturnType<typeof suggestOverlay>> | undefined;
  let stopped: unknown;
  try {
    result = await suggestOverlay(model, commands, skills, current, {
      client,
      modelName: settings.model,
      refresh: options.refresh,
      concurrency: settings.concurrency ?? 4,
      budget,
      signal: deadline,
      secrets: key ? [key] : [],
      onProgress: progress,
    });
  } catch (error) {
    stopped = error;
  }
  if (stopped) {
    // A stopped run writes nothing: the overlay stays as it was.
    if (stopped instanceof InterError)
      throw new InterError(
        stopped.code,
        `${stopped.message} The overlay (${file}) was left as it was.`,
        stopped.suggestion,
        { ...stopped.details, spent: budget.spent(), overlay: file, written: false },
      );
    throw stopped;
  }
  const before = JSON.stringify(current);
  const after = JSON.stringify(result!.overlay);
  if (after !== before) writeOverlay(root, file, result!.overlay);
  if (result!.failed.length) {
    // The answers that came are kept (the file is whole either way); the ones that did not are this run's failure.
    const f = result!.failed;
    throw new InterError(
      "MODEL_OUTPUT_INVALID",
      `${f.length} answer${f.length > 1 ? "s" : ""} from ${settings.model} could not be used (${f.map((x) => x.entry).join(", ")}): ${f[0]!.message}`,
      `The other answers are in ${file}; run \`inter design suggest\` again to ask only for what is missing (the rules' design stands there meanwhile).`,
      {
        failed: f,
        overlay: file,
        written: after !== before,
        requests: result!.asked,
        answered: result!.answered,
        recorded: result!.recorded,
        rejected: result!.rejected,
        spent: result!.spent,
      },
    );
  }
  const spent = result!.spent;
  const cost = estimateCost(settings.model, { inputTokens: spent.inputTokens, outputTokens: spent.outputTokens });
  return {
    overlay: file,
    model: settings.model,
    provider: settings.provider,
    requests: result!.asked,
    answered: result!.answered,
    current: result!.current,
    recorded: result!.recorded,
    rejected: result!.rejected,
    failed: result!.failed,
    tokens: { input: spent.inputTokens, output: spent.outputTokens },
    costUsd: cost.usd,
    costBasis: cost.basis,
    durationMs: Math.round(performance.now() - started),
    written: after !== before,
  };
}

export function suggestSummary(run: SuggestRun): string {
  const cost = run.costUsd === null ? "cost unknown for this model" : `about $${run.costUsd.toFixed(4)}`;
  const asked = run.requests
    ? `${count(run.requests, "request")} to ${run.model}: ${run.answered} answered, ${run.failed.length} failed; ${count(run.recorded, "entry", "entries")} recorded, ${count(run.rejected.length, "part")} of answers rejected${run.rejected.length ? " (each named above)" : ""}`
    : `nothing asked of ${run.model}`;
  const current = run.current ? `; ${count(run.current, "question")} already answered in the file, not asked` : "";
  return `${run.overlay}: ${asked}${current}; ${run.tokens.input} tokens in, ${run.tokens.output} out (${cost}) in ${(run.durationMs / 1000).toFixed(1)} s${run.written ? "" : "; the file is unchanged"}`;
}
