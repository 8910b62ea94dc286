import { readFileSync } from "node:fs";
import { join } from "node:path";
import { InterError } from "../core/errors.js";
import type { CommandsPlan, SkillsPlan } from "../stages/design/types.js";
import type { OperationModel } from "../stages/openapi/model.js";
import { COMMANDS_FILE } from "../pipeline/commands.js";
import { overlayPath } from "../pipeline/design.js";
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
  kept: number;
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
export async function runSuggest(project: Project, options: { refresh: boolean; json: boolean; concurrency: number; maxTokens?: number; maxCostUsd?: number }): Promise<SuggestRun> {
  const { config, root } = project.loaded;
  const settings = config.design?.model;
  if (!settings) {
    throw new InterError("USAGE_ERROR", `${project.loaded.file}: no design.model is configured, so there is no model to ask.`, 'Add design: { model: { provider: "openai-compatible", model: "deepseek-chat", baseUrl: "https://api.deepseek.com/v1", keyEnv: "DEEPSEEK_API_KEY" } } to the config (docs/overlay.md).', { field: "design.model" });
  }
  const started = performance.now();
  await executeGraph(project, ["commands", "skills"], { json: true, concurrency: options.concurrency, force: false });
  const [{ createModelClient, Budget, estimateCost }, { suggestOverlay }, { readOverlay, writeOverlay }] = await Promise.all([import("../model/client.js"), import("../stages/design/suggest.js"), import("../stages/design/overlay-file.js")]);
  const file = overlayPath(config);
  const current = await readOverlay(root, file);
  const client = createModelClient({ provider: settings.provider, model: settings.model, baseUrl: settings.baseUrl, keyEnv: settings.keyEnv, ...(settings.timeoutMs ? { timeoutMs: settings.timeoutMs } : {}) }, process.env, {
    ...(settings.retries !== undefined ? { retries: settings.retries } : {}),
    onRetry: (info) => {
      if (!options.json) process.stderr.write(`  ↻ ${info.reason}; retrying in ${Math.round(info.delayMs)} ms (attempt ${info.attempt + 1})\n`);
    },
  });
  const budget = new Budget({ maxTokens: options.maxTokens ?? settings.maxTokens ?? 2_000_000, ...(options.maxCostUsd ?? settings.maxCostUsd ? { maxCostUsd: options.maxCostUsd ?? settings.maxCostUsd } : {}) });
  const deadline = AbortSignal.timeout(settings.deadlineMs ?? 900_000);
  const key = process.env[settings.keyEnv];
  const progress = (event: { kind: string; name: string; state: string; usage?: { inputTokens: number; outputTokens: number }; error?: string }) => {
    if (options.json || event.state === "asked") return;
    const mark = event.state === "answered" ? "✔" : event.state === "kept" ? "·" : "✖";
    const detail = event.state === "answered" && event.usage ? ` (${event.usage.inputTokens} in, ${event.usage.outputTokens} out)` : event.state === "kept" ? " (current in the overlay)" : event.error ? ` ${event.error}` : "";
    process.stderr.write(`${mark} ${event.kind} ${event.name}${detail}\n`);
  };
  const model = readJson<OperationModel>(root, OPERATIONS_FILE);
  const commands = readJson<CommandsPlan>(root, COMMANDS_FILE);
  const skills = readJson<SkillsPlan>(root, SKILLS_FILE);
  let result: Awaited<ReturnType<typeof suggestOverlay>> | undefined;
  let stopped: unknown;
  try {
    result = await suggestOverlay(model, commands, skills, current, { client, modelName: settings.model, refresh: options.refresh, concurrency: settings.concurrency ?? 4, budget, signal: deadline, secrets: key ? [key] : [], onProgress: progress });
  } catch (error) {
    stopped = error;
  }
  if (stopped) {
    // A stopped run writes nothing: the overlay stays as it was.
    if (stopped instanceof InterError) throw new InterError(stopped.code, `${stopped.message} The overlay (${file}) was left as it was.`, stopped.suggestion, { ...stopped.details, spent: budget.spent(), overlay: file, written: false });
    throw stopped;
  }
  const before = JSON.stringify(current);
  const after = JSON.stringify(result!.overlay);
  if (after !== before) writeOverlay(root, file, result!.overlay);
  if (result!.failed.length) {
    // The answers that came are kept (the file is whole either way); the ones that did not are this run's failure.
    const f = result!.failed;
    throw new InterError("MODEL_OUTPUT_INVALID", `${f.length} answer${f.length > 1 ? "s" : ""} from ${settings.model} could not be used (${f.map((x) => x.entry).join(", ")}): ${f[0]!.message}`, `The other answers are in ${file}; run \`inter design suggest\` again to ask only for what is missing (the rules' design stands there meanwhile).`, { failed: f, overlay: file, written: after !== before, requests: result!.asked, spent: result!.spent });
  }
  const spent = result!.spent;
  const cost = estimateCost(settings.model, { inputTokens: spent.inputTokens, outputTokens: spent.outputTokens });
  return {
    overlay: file,
    model: settings.model,
    provider: settings.provider,
    requests: result!.asked,
    kept: result!.kept,
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
  return `${run.overlay}: ${run.requests} request${run.requests === 1 ? "" : "s"} to ${run.model}, ${run.kept} answer${run.kept === 1 ? "" : "s"} kept, ${run.failed.length} failed; ${run.tokens.input} tokens in, ${run.tokens.output} out (${cost}) in ${(run.durationMs / 1000).toFixed(1)} s${run.written ? "" : "; the file is unchanged"}`;
}
