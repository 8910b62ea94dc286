import { Command, Option } from "clipanion";
import { existsSync, readFileSync, statSync } from "node:fs";
import { basename, dirname, join, relative, resolve } from "node:path";
import { writeFileAtomic } from "../../../core/atomic.js";
import type { RenameChange } from "../../../stages/plan/renames.js";
import { InterError } from "../../../core/errors.js";
import type { ValidationReport } from "../../../stages/plan/validate.js";
import { BaseCommand, type CommandResult } from "../../base.js";
import { candidateTree } from "./shared.js";
import { findCandidate } from "../../candidate-lookup.js";
import { count } from "../../../core/plural.js";

/**
 * The report as a person reads it, top-down: the verdict with its counts, one line per stage whose mark is its
 * findings' (✗ errors, ⚠ warnings only, ✓ none, – not run), then the errors, then the warnings, each list counted.
 */
function reportText(report: ValidationReport): string {
  const stages = Object.entries(report.stages).map(([name, s]) => {
    if (!s.ran) return `  – ${name} (not run: ${s.reason})`;
    const mine = report.findings.filter((f) => f.stage === name);
    const errors = mine.filter((f) => f.severity === "error").length;
    const warnings = mine.length - errors;
    const mark = errors ? "✗" : warnings ? "⚠" : "✓";
    const counts = [errors ? count(errors, "error") : "", warnings ? count(warnings, "warning") : ""]
      .filter(Boolean)
      .join(", ");
    return `  ${mark} ${name}${counts ? ` (${counts})` : ""}`;
  });
  const line = (f: ValidationReport["findings"][number]) =>
    `  ${f.severity === "error" ? "✗" : "⚠"} [${f.stage}] ${f.code} at ${f.file ? `${f.file} ` : ""}${f.pointer || "/"}: ${f.message}\n      → ${f.suggestion}`;
  const errors = report.findings.filter((f) => f.severity === "error");
  const warnings = report.findings.filter((f) => f.severity !== "error");
  return [
    `${report.plan.file}: ${report.valid ? "valid" : "invalid"} (${count(report.errors, "error")}, ${count(report.warnings, "warning")})${report.candidate ? ` against ${report.candidate.binary}${report.candidate.sha256 ? ` sha256:${report.candidate.sha256.slice(0, 12)}…` : ""}` : ""}`,
    ...stages,
    ...(errors.length ? [`${count(errors.length, "error")}:`, ...errors.map(line)] : []),
    ...(warnings.length ? [`${count(warnings.length, "warning")}:`, ...warnings.map(line)] : []),
    ...report.limits.map((l) => `  note: ${l}`),
  ].join("\n");
}

export class EvalValidateCommand extends BaseCommand {
  static paths = [["eval", "validate"]];
  static usage = Command.Usage({
    description: "Validate an evaluation plan: shape, references, against the candidate, hygiene",
    details:
      "Give a folder holding eval-plan.json or a plan file. The candidate (to check command prefixes, flags, output fields and the reference solutions against) is --candidate, else cli.tgz beside the plan, else the project's dist/cli.tgz. The reference solutions beside the plan (eval-plan.reference.json) are validated with it. No config is needed. Exit 0 when valid (warnings allowed unless --strict), 2 when invalid. Every finding has a stage, severity, code, JSON pointer (and file, for the reference solutions), message and suggestion; docs/eval-plan.md lists every code.",
    examples: [
      ["Validate an evaluation folder", "inter eval validate ./evaluation"],
      [
        "Validate a project's plan against its build",
        "inter eval validate evals/eval-plan.json --candidate dist/cli.tgz",
      ],
      ["Treat weak checks and blind spots as errors (CI)", "inter eval validate evals/eval-plan.json --strict --json"],
      [
        "Rewrite command names the design overlay renamed (shows the diff, then validates)",
        "inter eval validate evals/eval-plan.json --fix-renames",
      ],
    ],
  });
  target = Option.String({ name: "folder|plan" });
  candidate = Option.String("--candidate", {
    description: "The cli.tgz to validate against (default: cli.tgz beside the plan, else the project's dist/cli.tgz)",
  });
  strict = Option.Boolean("--strict", false, {
    description: "Warnings (weak checks, blind spots, unused observations) are errors",
  });
  fixRenames = Option.Boolean("--fix-renames", false, {
    description:
      "Rewrite the plan's (and reference solutions') command names through the renames the design overlay made (recorded in the build's capabilities.json), printing the diff first, then validate",
  });

  async run(): Promise<CommandResult> {
    const path = resolve(this.cwd ?? process.cwd(), this.target);
    if (!existsSync(path))
      throw new InterError(
        "INPUT_NOT_FOUND",
        `${this.target} does not exist.`,
        "Give a folder with eval-plan.json (and cli.tgz) or a plan file.",
        { path },
      );
    const isFolder = statSync(path).isDirectory();
    const planFile = isFolder ? join(path, "eval-plan.json") : path;
    if (!existsSync(planFile))
      throw new InterError(
        "INPUT_NOT_FOUND",
        `${this.target} holds no eval-plan.json.`,
        "Write one with `inter eval new <folder>`.",
        { path: planFile },
      );
    const { validatePlan, planInvalid } = await import("../../../stages/plan/validate.js");
    const cwd = this.cwd ?? process.cwd();
    const found = await findCandidate(dirname(planFile), this.candidate, cwd);
    const { tree, missing } = await candidateTree(found.tgz, found.missing, this.json);
    const referenceFile = planFile.replace(/\.json$/, "") + ".reference.json";
    let reference = existsSync(referenceFile)
      ? { file: basename(referenceFile), text: readFileSync(referenceFile, "utf8") }
      : undefined;
    let planText = readFileSync(planFile, "utf8");
    let fixed: RenameChange[] | undefined;
    if (this.fixRenames) {
      if (!tree)
        throw new InterError(
          "USAGE_ERROR",
          `--fix-renames needs the candidate, and there is none: ${missing}.`,
          "Build the project (inter build) or pass --candidate <cli.tgz>; its capabilities.json records the overlay's renames.",
          { flag: "--fix-renames" },
        );
      const { applyRenames, renameDiff } = await import("../../../stages/plan/renames.js");
      const planName = relative(cwd, planFile) || basename(planFile);
      const result = applyRenames(
        {
          plan: { file: planName, text: planText },
          ...(reference ? { reference: { file: relative(cwd, referenceFile), text: reference.text } } : {}),
        },
        tree.binary,
        tree.renames ?? [],
      );
      fixed = result.changes;
      // The diff first, then the write: the person sees exactly what changed in their files.
      if (!this.json)
        process.stderr.write(
          fixed.length
            ? `${renameDiff(fixed)}\n${count(fixed.length, "command line")} rewritten through the overlay's renames.\n`
            : `nothing to rewrite: ${tree.renames?.length ? "the plan names none of the renamed commands" : "the candidate's build records no renames (capabilities.json beside it)"}.\n`,
        );
      if (result.plan !== undefined) {
        writeFileAtomic(planFile, result.plan);
        planText = result.plan;
      }
      if (result.reference !== undefined && reference) {
        writeFileAtomic(referenceFile, result.reference);
        reference = { ...reference, text: result.reference };
      }
    }
    const report = await validatePlan(
      planText,
      isFolder ? join(basename(path), "eval-plan.json") : basename(path),
      tree,
      { ...(missing ? { candidateMissing: missing } : {}), strict: this.strict, ...(reference ? { reference } : {}) },
    );
    if (!report.valid) {
      if (!this.json) process.stderr.write(`${reportText(report)}\n`);
      const error = planInvalid(report);
      throw fixed ? new InterError(error.code, error.message, error.suggestion, { ...error.details, fixed }) : error;
    }
    return { data: fixed ? { ...report, fixed } : report, human: reportText(report) };
  }
}
