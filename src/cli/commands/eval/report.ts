import { Command, Option } from "clipanion";
import * as t from "typanion";
import { dirname, resolve } from "node:path";
import { InterError } from "../../../core/errors.js";
import type { CommandResult } from "../../base.js";
import { GatedCommand } from "./shared.js";
import { REPORT_FILES, REPORT_FORMAT_NAMES, REPORT_FORMATS } from "../../../evaluation/report/formats.js";

export class EvalReportCommand extends GatedCommand {
  static paths = [["eval", "report"]];
  static usage = Command.Usage({
    description: `Write ${REPORT_FILES.join(", ")} from a results.json, and apply the CI gate`,
    details:
      "Reads results alone (no plan, candidate or config needed). Without --format, writes every report beside RESULTS and appends summary.md to $GITHUB_STEP_SUMMARY when set; with --format, prints that one on stdout (or writes it to --out). The gate is applied again with the flags given (default: every scenario passes every attempt): exit 1 when it is not met, naming the scenarios that missed it on stderr (EVAL_NOT_JUDGED instead of EVAL_FAILED when every attempt was a harness error).",
    examples: [
      ["Regenerate every report", "inter eval report dist/eval/results.json"],
      ["JUnit for the CI's test view", "inter eval report dist/eval/results.json --format junit --out junit.xml"],
      [
        "Gate saved results at 80 % per scenario",
        "inter eval report dist/eval/results.json --min-pass-rate 0.8 --allow-incomplete",
      ],
    ],
  });
  results = Option.String({ name: "results.json" });
  format = Option.String("--format", {
    description: `${REPORT_FORMAT_NAMES.map((f) => `${f} (${REPORT_FORMATS[f].file}, ${REPORT_FORMATS[f].purpose})`).join(", ")}: print (or --out) just this one`,
    validator: t.isEnum(REPORT_FORMAT_NAMES),
  });
  out = Option.String("--out", { description: "With --format: write to this file instead of stdout" });

  async run(): Promise<CommandResult> {
    const file = resolve(this.cwd ?? process.cwd(), this.results);
    if (this.out && !this.format)
      throw new InterError(
        "USAGE_ERROR",
        "--out needs --format: it writes one report.",
        `Add --format ${REPORT_FORMAT_NAMES.join(", ")}.`,
      );
    const [{ loadResults }, { applyGate, gateError, gateLine }, { renderReport, writeReports }, { writeFileAtomic }] =
      await Promise.all([
        import("../../../evaluation/results/load.js"),
        import("../../../evaluation/results/gate.js"),
        import("../../../evaluation/report/write.js"),
        import("../../../core/atomic.js"),
      ]);
    const stored = await loadResults(file, this.results);
    const gate = applyGate(stored, this.gate());
    const results = { ...stored, gate };
    let written: string[] = [];
    let printed: string | undefined;
    if (!this.format) written = await writeReports(results, dirname(file));
    else if (this.out) {
      const target = resolve(this.cwd ?? process.cwd(), this.out);
      writeFileAtomic(target, await renderReport(results, this.format));
      written = [target];
    } else printed = await renderReport(results, this.format);
    if (!gate.met) {
      if (!this.json) process.stdout.write(printed ?? written.map((w) => `Wrote ${w}\n`).join(""));
      throw gateError(
        results,
        "",
        "Read the report for each failed check; lower the bar only on purpose, with --min-pass-rate or --allow-incomplete.",
        { written },
      );
    }
    if (printed !== undefined) return { data: { format: this.format, content: printed, gate }, human: printed };
    return { data: { written, gate }, human: `${written.map((w) => `Wrote ${w}`).join("\n")}\n${gateLine(gate)}` };
  }
}
