import { Command, Option } from "clipanion";
import { join, resolve } from "node:path";
import { InterError } from "../../../core/errors.js";
import type { CommandResult } from "../../base.js";
import { GatedCommand } from "./shared.js";
import { count } from "../../../core/plural.js";

export class EvalMergeCommand extends GatedCommand {
  static paths = [["eval", "merge"]];
  static usage = Command.Usage({
    description: "Join the results of evaluation shards into one results.json and its reports",
    details:
      "Each input is the results.json of one `inter eval run --shard i/n`. They must be shards of one evaluation (same candidate, plan, agent and settings), each attempt once and none missing; otherwise RESULTS_MISMATCH (exit 2) names the file and field. Shards the agent reports were answered by different models are refused unless --across-models (EVAL_MODELS_DIFFER). Writes results.json, report.html, junit.xml and summary.md into --out, judges the gate again (exit 1 when not met: EVAL_FAILED, or EVAL_NOT_JUDGED when every attempt was a harness error).",
    examples: [["Join four shards", "inter eval merge shard-*/results.json --out merged"]],
  });
  inputs = Option.Rest({ name: "results.json", required: 1 });
  acrossModels = Option.Boolean("--across-models", false, {
    description:
      "Merge even when the agent reports that shards were answered by different models (refused otherwise: EVAL_MODELS_DIFFER); the merged results list every model that answered",
  });
  out = Option.String("--out", {
    description: "Folder for the merged results and reports (default: the working directory)",
  });

  async run(): Promise<CommandResult> {
    const cwd = this.cwd ?? process.cwd();
    const [
      { loadResults },
      { mergeResults },
      { applyGate, gateError, gateLine },
      { writeReports },
      { writeFileAtomic },
    ] = await Promise.all([
      import("../../../evaluation/results/load.js"),
      import("../../../evaluation/results/merge.js"),
      import("../../../evaluation/results/gate.js"),
      import("../../../evaluation/report/write.js"),
      import("../../../core/atomic.js"),
    ]);
    const inputs = [];
    for (const file of this.inputs) inputs.push({ file, results: await loadResults(resolve(cwd, file), file) });
    const outDir = resolve(cwd, this.out ?? ".");
    const target = join(outDir, "results.json");
    if (this.inputs.some((f) => resolve(cwd, f) === target))
      throw new InterError(
        "USAGE_ERROR",
        `--out would overwrite the input ${target}.`,
        "Give --out a folder of its own, e.g. --out merged.",
      );
    const merged = mergeResults(inputs, this.acrossModels);
    const results = {
      ...merged,
      gate: applyGate(merged, this.gate()),
    };
    writeFileAtomic(target, `${JSON.stringify(results, null, 2)}\n`);
    const reports = await writeReports(results, outDir);
    const human = `Merged ${inputs.length} results into ${target}: ${results.summary.passed}/${count(results.summary.attempts, "attempt")} passed.\n${gateLine(results.gate)}\nReports: ${reports.join(", ")}`;
    if (!results.gate.met) {
      if (!this.json) process.stdout.write(`${human}\n`);
      throw gateError(results, "", "Read the merged report.html for each failed check.", { file: target });
    }
    return { data: { file: target, reports, ...results }, human };
  }
}

/** A candidate given as a cli.tgz or a folder holding one. */
