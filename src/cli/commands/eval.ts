import { Command, Option } from "clipanion";
import * as t from "typanion";
import type { AgentConfig } from "../../config/types.js";
import { existsSync, readFileSync, statSync } from "node:fs";
import { basename, dirname, join, relative, resolve } from "node:path";
import { InterError } from "../../core/errors.js";
import { shippedFile } from "../../core/package-files.js";
import type { Receipt } from "../../inspect/receipt.js";
import type { CandidateTree, ValidationReport } from "../../plan/validate.js";
import { BaseCommand, type CommandResult } from "../base.js";
import { INTER_BUILD } from "../../core/version.js";
import type { GateOptions } from "../../evaluation/results/gate.js";

const PASS_RATE = t.cascade(t.isNumber(), [t.isInInclusiveRange(0, 1)]);

function parseShard(value: string): { index: number; count: number } {
  const match = /^(\d+)\/(\d+)$/.exec(value);
  const [index, count] = match ? [Number(match[1]), Number(match[2])] : [0, 0];
  if (!match || count < 1 || index < 1 || index > count) throw new InterError("USAGE_ERROR", `--shard ${value} is not I/N with 1 ≤ I ≤ N.`, "Example: --shard 1/4 on the first of four runners, --shard 4/4 on the last.", { shard: value });
  return { index, count };
}

/** Runs work that stops on Ctrl-C or SIGTERM: the signal aborts it; finished attempts stay journaled. */
async function interruptible<T>(work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  const onSignal = () => controller.abort();
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  try {
    return await work(controller.signal);
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
  }
}

/** An agent's argv template given on the command line as a JSON array of strings. */
function argvOption(flag: string, value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    parsed = undefined;
  }
  if (!Array.isArray(parsed) || !parsed.length || !parsed.every((x) => typeof x === "string")) throw new InterError("USAGE_ERROR", `${flag} must be a JSON array of strings.`, `Example: ${flag} '["my-agent", "{prompt_file}"]'`);
  return parsed as string[];
}

/** The gate the flags ask for; by default every attempt of every scenario must pass. */
const gateOf = (minPassRate: unknown, allowIncomplete: boolean, requireSealed = false, forbidSideEffects = false): GateOptions => ({ minPassRate: (minPassRate as number | undefined) ?? 1, allowIncomplete, ...(requireSealed ? { requireSealed } : {}), ...(forbidSideEffects ? { forbidSideEffects } : {}) });
const FORBID_SIDE_EFFECTS = "Fail an attempt (and the gate) on a mutating call no observation of its scenario matches";
const REQUIRE_SEALED = "Fail the gate when the attempts ran unsealed (no bubblewrap): their evidence could have been forged";

/**
 * The candidate a plan is validated against: --candidate, else cli.tgz beside the plan, else the build output of the
 * project the plan belongs to (the nearest folder up with intermesh.config.ts, its dist/cli.tgz — the layout `inter
 * init` makes).
 */
function findCandidate(planDir: string, given: string | undefined, cwd: string): { tgz?: string; missing: string } {
  if (given) {
    const tgz = resolve(cwd, given);
    if (!existsSync(tgz)) throw new InterError("INPUT_NOT_FOUND", `No candidate at ${given}.`, "Build one with `inter build` (it writes dist/cli.tgz), or give the path of a cli.tgz.", { path: tgz });
    return { tgz, missing: "" };
  }
  if (existsSync(join(planDir, "cli.tgz"))) return { tgz: join(planDir, "cli.tgz"), missing: "" };
  for (let dir = planDir; ; dir = dirname(dir)) {
    if (existsSync(join(dir, "intermesh.config.ts"))) {
      const built = join(dir, "dist", "cli.tgz");
      return existsSync(built) ? { tgz: built, missing: "" } : { missing: `no cli.tgz in ${planDir}, and the project's ${join(dir, "dist", "cli.tgz")} is not built yet (inter build)` };
    }
    if (dirname(dir) === dir) return { missing: `no cli.tgz in ${planDir} and no project around it; pass --candidate <cli.tgz>` };
  }
}

/** The candidate tree of a cli.tgz: the receipt.json beside it when it matches, else a fresh inspection. */
async function candidateTree(tgz: string | undefined, missing: string, json: boolean): Promise<{ tree: CandidateTree | null; missing?: string }> {
  if (!tgz) return { tree: null, missing };
  const folder = dirname(tgz);
  const [{ treeFromReceipt }, { sha256 }] = await Promise.all([import("../../plan/candidate.js"), import("../../core/hash.js")]);
  const bytes = readFileSync(tgz);
  const hash = sha256(bytes);
  const receiptFile = join(folder, "receipt.json");
  if (existsSync(receiptFile)) {
    const receipt = JSON.parse(readFileSync(receiptFile, "utf8")) as Receipt;
    if (receipt.candidate?.sha256 === hash && Array.isArray(receipt.globalFlags)) return { tree: treeFromReceipt(receipt) };
  }
  if (!json) process.stderr.write(`inter: inspecting ${tgz} to learn its commands…\n`);
  const { inspectTarball } = await import("../../inspect/inspect.js");
  return { tree: treeFromReceipt(await inspectTarball(tgz, bytes, { interVersion: INTER_BUILD })) };
}

function reportText(report: ValidationReport): string {
  const stages = Object.entries(report.stages).map(([name, s]) => `  ${s.ran ? "✓" : "–"} ${name}${s.ran ? "" : ` (not run: ${s.reason})`}`);
  const findings = report.findings.map((f) => `  ${f.severity === "error" ? "✗" : "⚠"} [${f.stage}] ${f.code} at ${f.file ? `${f.file} ` : ""}${f.pointer || "/"}: ${f.message}\n      → ${f.suggestion}`);
  return [
    `${report.plan.file}: ${report.valid ? "valid" : "invalid"} (${report.errors} errors, ${report.warnings} warnings)${report.candidate ? ` against ${report.candidate.binary}${report.candidate.sha256 ? ` sha256:${report.candidate.sha256.slice(0, 12)}…` : ""}` : ""}`,
    ...stages,
    ...findings,
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
      ["Validate a project's plan against its build", "inter eval validate evals/eval-plan.json --candidate dist/cli.tgz"],
      ["Treat weak checks and blind spots as errors (CI)", "inter eval validate evals/eval-plan.json --strict --json"],
    ],
  });
  target = Option.String({ name: "folder|plan" });
  candidate = Option.String("--candidate", { description: "The cli.tgz to validate against (default: cli.tgz beside the plan, else the project's dist/cli.tgz)" });
  strict = Option.Boolean("--strict", false, { description: "Warnings (weak checks, blind spots, unused observations) are errors" });

  async run(): Promise<CommandResult> {
    const path = resolve(this.cwd ?? process.cwd(), this.target);
    if (!existsSync(path)) throw new InterError("INPUT_NOT_FOUND", `${this.target} does not exist.`, "Give a folder with eval-plan.json (and cli.tgz) or a plan file.", { path });
    const isFolder = statSync(path).isDirectory();
    const planFile = isFolder ? join(path, "eval-plan.json") : path;
    if (!existsSync(planFile)) throw new InterError("INPUT_NOT_FOUND", `${this.target} holds no eval-plan.json.`, "Write one with `inter eval new <folder>`.", { path: planFile });
    const [{ validatePlan, planInvalid }, { planSchema }] = await Promise.all([import("../../plan/validate.js"), import("../../plan/schema.js")]);
    const cwd = this.cwd ?? process.cwd();
    const found = findCandidate(dirname(planFile), this.candidate, cwd);
    const { tree, missing } = await candidateTree(found.tgz, found.missing, this.json);
    const referenceFile = planFile.replace(/\.json$/, "") + ".reference.json";
    const reference = existsSync(referenceFile) ? { file: basename(referenceFile), text: readFileSync(referenceFile, "utf8") } : undefined;
    const report = await validatePlan(readFileSync(planFile, "utf8"), isFolder ? join(basename(path), "eval-plan.json") : basename(path), planSchema(), tree, { ...(missing ? { candidateMissing: missing } : {}), strict: this.strict, ...(reference ? { reference } : {}) });
    if (!report.valid) {
      if (!this.json) process.stderr.write(`${reportText(report)}\n`);
      throw planInvalid(report);
    }
    return { data: report, human: reportText(report) };
  }
}

const FILL = (what: string) => `<<FILL ME: ${what}>>`;

export class EvalNewCommand extends BaseCommand {
  static paths = [["eval", "new"]];
  static usage = Command.Usage({
    description: "Write a starter eval-plan.json for the candidate in a folder: one scenario per bundled Skill",
    details:
      "Reads cli.tgz in the folder (build one with `inter build`, then copy dist/cli.tgz there). Command prefixes come from the Skills' own commands; nothing is invented: tasks, ids and expected values are <<FILL ME>> placeholders, which make `inter eval validate` fail until replaced. An existing eval-plan.json is never overwritten.",
    examples: [
      ["Start a plan in an evaluation folder holding cli.tgz", "inter eval new ./evaluation"],
      ["Start a project's plan from its build", "inter eval new evals --candidate dist/cli.tgz"],
    ],
  });
  folder = Option.String({ name: "folder" });
  candidate = Option.String("--candidate", { description: "The cli.tgz to read (default: FOLDER/cli.tgz)" });

  async run(): Promise<CommandResult> {
    const folder = resolve(this.cwd ?? process.cwd(), this.folder);
    const tgz = this.candidate ? resolve(this.cwd ?? process.cwd(), this.candidate) : join(folder, "cli.tgz");
    const planFile = join(folder, "eval-plan.json");
    if (!existsSync(tgz)) throw new InterError("INPUT_NOT_FOUND", this.candidate ? `No candidate at ${this.candidate}.` : `${this.folder} holds no cli.tgz.`, "Build one with `inter build` (it writes dist/cli.tgz) and pass --candidate dist/cli.tgz, or copy it into the folder.", { path: tgz });
    if (existsSync(planFile)) throw new InterError("USAGE_ERROR", `${this.folder}/eval-plan.json already exists; it is never overwritten.`, "Edit it, or remove it first to start over.", { path: planFile });
    const { checkTarball } = await import("../../inspect/tarball.js");
    await checkTarball(tgz);
    const tar = await import("tar");
    const files: Record<string, string> = {};
    await tar.t({
      file: tgz,
      onReadEntry: (entry) => {
        if (!/^package\/(manifest\.json|commands\/[^/]+\.json|skills\/[^/]+\/SKILL\.md)$/.test(entry.path)) return entry.resume();
        const chunks: Buffer[] = [];
        entry.on("data", (c: Buffer) => chunks.push(c));
        entry.on("end", () => (files[entry.path] = Buffer.concat(chunks).toString("utf8")));
      },
    });
    const manifest = JSON.parse(files["package/manifest.json"] ?? "null") as { product: { binary: string }; baseUrl: { default: string | null }; auth: { env: string }; } | null;
    if (!manifest) throw new InterError("INSPECT_FAILED", "cli.tgz has no manifest.json; `inter eval new` starts plans for candidates built by inter.", "Write the plan by hand (schemas/eval-plan.schema.json).");
    const binary = manifest.product.binary;
    // Commands live in one file per group (package/commands/<group>.json).
    const names = new Set(Object.entries(files).filter(([p]) => p.startsWith("package/commands/")).flatMap(([, text]) => (JSON.parse(text) as { commands: Array<{ name: string; hidden?: boolean }> }).commands.filter((c) => !c.hidden).map((c) => c.name)));
    const scenarios = Object.entries(files)
      .filter(([p]) => p.endsWith("/SKILL.md"))
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([path, text]) => {
        const name = path.split("/")[2]!;
        const quoted = [...new Set([...text.matchAll(new RegExp(`\`${binary} ([a-z0-9 -]+?)(?= --|\`)`, "g"))].map((m) => m[1]!.trim()))].filter((c) => names.has(c));
        const observations = quoted.map((command) => ({ id: command.replace(/ /g, "-"), kind: "cli", description: `the ${command} call`, command_prefix: [binary, ...command.split(" ")] }));
        return {
          id: name,
          user_task: FILL(`what a user asks for "${name}", with every id and file name the agent needs`),
          inputs: {},
          expected_outcome: FILL("what is true when the task is done"),
          observations: observations.length ? observations : [{ id: "call", kind: "cli", description: "the main call", command_prefix: [binary, FILL("resource"), FILL("action")] }],
          checks: [
            ...observations.map((o) => ({ id: `${o.id}-ok`, type: "command_success", description: `${o.description} succeeded`, observation_id: o.id })),
            { id: "outcome", type: "field_equals", description: FILL("the fact this check proves"), source: { observation_id: observations[observations.length - 1]?.id ?? "call", field: ["stdout", "result", FILL("field")] }, expected: FILL("expected value") },
          ],
        };
      });
    const apiUrl = manifest.baseUrl.default ?? "http://127.0.0.1:8080";
    const plan = {
      // The schema inter ships, as a path from the plan's folder: editors resolve it; no URL that serves nothing.
      $schema: relative(folder, shippedFile("schemas/eval-plan.schema.json")).split("\\").join("/"),
      schema_version: "3.0.0",
      target: { api_url: apiUrl, account: FILL("which account or data set the run uses"), credential_env: manifest.auth.env, allowed_reads: [FILL("what the agent may read")], allowed_hosts: [new URL(apiUrl).hostname], read_only_confirmed: false },
      settings: { repetitions: 1, concurrency: 1, timeout_seconds: 600 },
      assumptions: [],
      scenarios: scenarios.length ? scenarios : [{ id: "first-task", user_task: FILL("a task"), inputs: {}, expected_outcome: FILL("the outcome"), observations: [{ id: "call", kind: "cli", description: "the main call", command_prefix: [binary, FILL("resource"), FILL("action")] }], checks: [{ id: "call-ok", type: "command_success", description: "the call succeeded", observation_id: "call" }] }],
    };
    const { writeFileAtomic } = await import("../../core/atomic.js");
    writeFileAtomic(planFile, `${JSON.stringify(plan, null, 2)}\n`);
    // A starter for the golden run: per scenario, each observed command with its flags to fill in.
    const referenceFile = join(folder, "eval-plan.reference.json");
    const wroteReference = !existsSync(referenceFile);
    if (wroteReference) {
      const reference = Object.fromEntries(plan.scenarios.map((s) => [s.id, s.observations.filter((o) => o.kind === "cli").map((o) => ({ argv: [...o.command_prefix, FILL("the flags a correct agent gives")] }))]));
      writeFileAtomic(referenceFile, `${JSON.stringify(reference, null, 2)}\n`);
    }
    const placeholders = (JSON.stringify(plan).match(/<<FILL ME/g) ?? []).length;
    return { data: { file: planFile, ...(wroteReference ? { reference: referenceFile } : {}), scenarios: plan.scenarios.length, placeholders }, human: `Wrote ${planFile}${wroteReference ? ` and ${referenceFile}` : ""}: ${plan.scenarios.length} scenarios, ${placeholders} <<FILL ME>> placeholders to replace; then run inter eval validate ${this.folder}.` };
  }
}

export class EvalRunCommand extends BaseCommand {
  static paths = [["eval", "run"]];
  static usage = Command.Usage({
    description: "Let an agent perform the plan's scenarios with the candidate, and check what it did",
    details:
      "FOLDER holds cli.tgz and eval-plan.json (and eval-plan.reference.json for the reference agent). No config is needed. Each scenario × repetition runs as a sealed attempt: the agent in a bubblewrap sandbox that shows only its own folders, the candidate behind a broker that runs it with the credential (which the agent never holds) and records every call (docs/evaluation.md#sealed-attempts); without bubblewrap the run says it is unsealed; finished attempts are journaled, so an interrupted run resumes (--fresh starts over). Results go to FOLDER/.inter-eval/results.json with report.html, junit.xml and summary.md beside it (summary.md is also appended to $GITHUB_STEP_SUMMARY when set). Exit 0 when the gate is met (by default: every attempt passed), 1 when not, naming the scenarios that missed it, 2 for invalid input.",
    examples: [
      ["Golden run with reference solutions", "inter eval run ./evaluation"],
      ["With your own agent", 'inter eval run ./evaluation --agent-command \'["my-agent", "--prompt-file", "{prompt_file}"]\''],
      ["With Claude Code, passing when each scenario succeeds 2 times in 3", "inter eval run ./evaluation --agent claude-code --repetitions 3 --min-pass-rate 0.66"],
      ["The second of four CI runners", "inter eval run ./evaluation --shard 2/4"],
    ],
  });
  folder = Option.String({ name: "folder" });
  agent = Option.String("--agent", { description: "reference (default), claude-code, codex or opencode", validator: t.isEnum(["reference", "claude-code", "codex", "opencode"]) });
  agentCommand = Option.String("--agent-command", { description: 'An argv template as JSON; {prompt}, {prompt_file}, {workspace}, {outputs} are filled in' });
  repetitions = Option.String("--repetitions", { description: "Attempts per scenario (default: the plan's settings)", validator: t.cascade(t.isNumber(), [t.isInteger(), t.isInInclusiveRange(1, 100)]) });
  evalConcurrency = Option.String("--attempts-concurrency", { description: "Attempts at once (default: the plan's settings)", validator: t.cascade(t.isNumber(), [t.isInteger(), t.isInInclusiveRange(1, 32)]) });
  timeout = Option.String("--timeout", { description: "Seconds per attempt; the agent's whole process group is killed after it", validator: t.cascade(t.isNumber(), [t.isPositive()]) });
  fresh = Option.Boolean("--fresh", false, { description: "Discard journaled attempts, even of an interrupted run" });
  reuse = Option.Boolean("--reuse", false, { description: "Reuse the attempts of the last completed run of this candidate, plan and agent" });
  minPassRate = Option.String("--min-pass-rate", { description: "The gate: each scenario's pass rate must reach this, 0..1 (default 1)", validator: PASS_RATE });
  allowIncomplete = Option.Boolean("--allow-incomplete", false, { description: "Leave incomplete attempts out of the gate's pass rates instead of counting them as not passed" });
  requireSealed = Option.Boolean("--require-sealed", false, { description: REQUIRE_SEALED });
  forbidSideEffects = Option.Boolean("--forbid-side-effects", false, { description: FORBID_SIDE_EFFECTS });
  shard = Option.String("--shard", { description: "Run shard I of N (e.g. 2/4): a deterministic, balanced share of the attempts; join the shards with inter eval merge" });

  private gate(): GateOptions {
    return gateOf(this.minPassRate, this.allowIncomplete, this.requireSealed, this.forbidSideEffects);
  }

  async run(): Promise<CommandResult> {
    const folder = resolve(this.cwd ?? process.cwd(), this.folder);
    const argv = argvOption("--agent-command", this.agentCommand);
    const agent: AgentConfig | undefined = argv ? { command: argv } : (this.agent as AgentConfig | undefined);
    const { executeEvaluation, attemptLine, summaryTable, gateFailure } = await import("../../evaluation/run/execute.js");
    return interruptible(async (signal) => {
      const { results, file, reports } = await executeEvaluation({
        planFile: join(folder, "eval-plan.json"),
        tgz: join(folder, "cli.tgz"),
        referenceFile: join(folder, "eval-plan.reference.json"),
        receiptFile: join(folder, "receipt.json"),
        agent,
        runDir: join(folder, ".inter-eval"),
        services: {},
        servicesCwd: folder,
        settings: { repetitions: this.repetitions as unknown as number | undefined, concurrency: this.evalConcurrency as unknown as number | undefined, timeoutSeconds: this.timeout as unknown as number | undefined },
        fresh: this.fresh,
        reuse: this.reuse,
        gate: this.gate(),
        ...(this.shard ? { shard: parseShard(this.shard) } : {}),
        interVersion: INTER_BUILD,
        root: resolve(this.cwd ?? process.cwd()),
        signal,
        onAttempt: (a, resumed) => this.json || process.stderr.write(`${attemptLine(a, resumed)}\n`),
      });
      if (!results.gate.met) {
        if (!this.json) process.stderr.write(`${summaryTable(results)}\n`);
        throw gateFailure(results, file, { results, reports });
      }
      return { data: { ...results, file, reports }, human: `${summaryTable(results)}\nReports: ${reports.join(", ")}` };
    });
  }
}

export class EvalReportCommand extends BaseCommand {
  static paths = [["eval", "report"]];
  static usage = Command.Usage({
    description: "Write report.html, junit.xml and summary.md from a results.json, and apply the CI gate",
    details:
      "Reads results alone (no plan, candidate or config needed). Without --format, writes all three reports beside RESULTS and appends summary.md to $GITHUB_STEP_SUMMARY when set; with --format, prints that one on stdout (or writes it to --out). The gate is applied again with the flags given (default: every scenario passes every attempt): exit 1 when it is not met, naming the scenarios that missed it on stderr.",
    examples: [
      ["Regenerate every report", "inter eval report dist/eval/results.json"],
      ["JUnit for the CI's test view", "inter eval report dist/eval/results.json --format junit --out junit.xml"],
      ["Gate saved results at 80 % per scenario", "inter eval report dist/eval/results.json --min-pass-rate 0.8 --allow-incomplete"],
    ],
  });
  results = Option.String({ name: "results.json" });
  format = Option.String("--format", { description: "html, junit or md: print (or --out) just this one", validator: t.isEnum(["html", "junit", "md"]) });
  out = Option.String("--out", { description: "With --format: write to this file instead of stdout" });
  minPassRate = Option.String("--min-pass-rate", { description: "The gate: each scenario's pass rate must reach this, 0..1 (default 1)", validator: PASS_RATE });
  allowIncomplete = Option.Boolean("--allow-incomplete", false, { description: "Leave incomplete attempts out of the gate's pass rates" });
  requireSealed = Option.Boolean("--require-sealed", false, { description: REQUIRE_SEALED });
  forbidSideEffects = Option.Boolean("--forbid-side-effects", false, { description: FORBID_SIDE_EFFECTS });

  async run(): Promise<CommandResult> {
    const file = resolve(this.cwd ?? process.cwd(), this.results);
    if (this.out && !this.format) throw new InterError("USAGE_ERROR", "--out needs --format: it writes one report.", "Add --format html, junit or md.");
    const [{ loadResults }, { applyGate, gateError, gateLine }, { renderReport, writeReports }, { writeFileAtomic }] = await Promise.all([import("../../evaluation/results/load.js"), import("../../evaluation/results/gate.js"), import("../../evaluation/report/write.js"), import("../../core/atomic.js")]);
    const stored = await loadResults(file, this.results);
    const gate = applyGate(stored, gateOf(this.minPassRate, this.allowIncomplete, this.requireSealed, this.forbidSideEffects));
    const results = { ...stored, gate };
    let written: string[] = [];
    let printed: string | undefined;
    if (!this.format) written = writeReports(results, dirname(file));
    else if (this.out) {
      const target = resolve(this.cwd ?? process.cwd(), this.out);
      writeFileAtomic(target, renderReport(results, this.format as "html" | "junit" | "md"));
      written = [target];
    } else printed = renderReport(results, this.format as "html" | "junit" | "md");
    if (!gate.met) {
      if (!this.json) process.stdout.write(printed ?? written.map((w) => `Wrote ${w}\n`).join(""));
      throw gateError(gate, "", "Read the report for each failed check; lower the bar only on purpose, with --min-pass-rate or --allow-incomplete.", { written });
    }
    if (printed !== undefined) return { data: { format: this.format, content: printed, gate }, human: printed };
    return { data: { written, gate }, human: `${written.map((w) => `Wrote ${w}`).join("\n")}\n${gateLine(gate)}` };
  }
}

export class EvalDiffCommand extends BaseCommand {
  static paths = [["eval", "diff"]];
  static usage = Command.Usage({
    description: "Compare two evaluations: the scenarios and checks that regressed, improved or stayed",
    details:
      "BASE and HEAD are results.json files (e.g. the main branch's last evaluation and this change's). Pass rates are shown side by side, regressions first. Results of different plans are refused unless --plan-changed, which matches scenarios and checks by id. Exit 1 when anything regressed, 0 otherwise; --format md prints Markdown for a pull-request comment.",
    examples: [
      ["Compare with the main branch's results", "inter eval diff main-results.json dist/eval/results.json"],
      ["Markdown for a pull-request comment", "inter eval diff base.json head.json --format md > diff.md"],
    ],
  });
  base = Option.String({ name: "base.json" });
  head = Option.String({ name: "head.json" });
  planChanged = Option.Boolean("--plan-changed", false, { description: "Compare results of different plans, matching scenarios and checks by id" });
  format = Option.String("--format", { description: "text (default) or md", validator: t.isEnum(["text", "md"]) });

  async run(): Promise<CommandResult> {
    const cwd = this.cwd ?? process.cwd();
    const [{ loadResults }, { diffResults, diffText, diffMarkdown }] = await Promise.all([import("../../evaluation/results/load.js"), import("../../evaluation/results/diff.js")]);
    const base = await loadResults(resolve(cwd, this.base), this.base);
    const head = await loadResults(resolve(cwd, this.head), this.head);
    const diff = diffResults(base, head, this.planChanged);
    const text = this.format === "md" ? diffMarkdown(diff) : diffText(diff);
    if (diff.regressions) {
      if (!this.json) process.stdout.write(text.endsWith("\n") ? text : `${text}\n`);
      const worse = diff.scenarios.filter((s) => s.change === "regressed" || s.checks.some((c) => c.change === "regressed")).map((s) => s.id);
      throw new InterError("EVAL_FAILED", `${diff.regressions} regression${diff.regressions === 1 ? "" : "s"} from base to head, in ${worse.join(", ")}.`, "Look at those scenarios' failed checks in the head's report.html.", { diff });
    }
    return { data: diff, human: text };
  }
}

export class EvalMergeCommand extends BaseCommand {
  static paths = [["eval", "merge"]];
  static usage = Command.Usage({
    description: "Join the results of evaluation shards into one results.json and its reports",
    details:
      "Each input is the results.json of one `inter eval run --shard i/n`. They must be shards of one evaluation (same candidate, plan, agent and settings), each attempt once and none missing; otherwise RESULTS_MISMATCH (exit 2) names the file and field. Writes results.json, report.html, junit.xml and summary.md into --out, judges the gate again (exit 1 when not met).",
    examples: [["Join four shards", "inter eval merge shard-*/results.json --out merged"]],
  });
  inputs = Option.Rest({ name: "results.json", required: 1 });
  out = Option.String("--out", { description: "Folder for the merged results and reports (default: the working directory)" });
  minPassRate = Option.String("--min-pass-rate", { description: "The gate: each scenario's pass rate must reach this, 0..1 (default 1)", validator: PASS_RATE });
  allowIncomplete = Option.Boolean("--allow-incomplete", false, { description: "Leave incomplete attempts out of the gate's pass rates" });
  requireSealed = Option.Boolean("--require-sealed", false, { description: REQUIRE_SEALED });
  forbidSideEffects = Option.Boolean("--forbid-side-effects", false, { description: FORBID_SIDE_EFFECTS });

  async run(): Promise<CommandResult> {
    const cwd = this.cwd ?? process.cwd();
    const [{ loadResults }, { mergeResults }, { applyGate, gateError, gateLine }, { writeReports }, { writeFileAtomic }] = await Promise.all([import("../../evaluation/results/load.js"), import("../../evaluation/results/merge.js"), import("../../evaluation/results/gate.js"), import("../../evaluation/report/write.js"), import("../../core/atomic.js")]);
    const inputs = [];
    for (const file of this.inputs) inputs.push({ file, results: await loadResults(resolve(cwd, file), file) });
    const outDir = resolve(cwd, this.out ?? ".");
    const target = join(outDir, "results.json");
    if (this.inputs.some((f) => resolve(cwd, f) === target)) throw new InterError("USAGE_ERROR", `--out would overwrite the input ${target}.`, "Give --out a folder of its own, e.g. --out merged.");
    const merged = mergeResults(inputs);
    const results = { ...merged, gate: applyGate(merged, gateOf(this.minPassRate, this.allowIncomplete, this.requireSealed, this.forbidSideEffects)) };
    writeFileAtomic(target, `${JSON.stringify(results, null, 2)}\n`);
    const reports = writeReports(results, outDir);
    const human = `Merged ${inputs.length} results into ${target}: ${results.summary.passed}/${results.summary.attempts} attempts passed.\n${gateLine(results.gate)}\nReports: ${reports.join(", ")}`;
    if (!results.gate.met) {
      if (!this.json) process.stdout.write(`${human}\n`);
      throw gateError(results.gate, "", "Read the merged report.html for each failed check.", { file: target });
    }
    return { data: { file: target, reports, ...results }, human };
  }
}

/** A candidate given as a cli.tgz or a folder holding one. */
function candidateFile(cwd: string, given: string): string {
  const path = resolve(cwd, given);
  return existsSync(path) && statSync(path).isDirectory() ? join(path, "cli.tgz") : path;
}

export class EvalCompareCommand extends BaseCommand {
  static paths = [["eval", "compare"]];
  static usage = Command.Usage({
    description: "Run one plan with one agent on two candidates, in turn, and compare them; --skills-uplift measures what the Skills add",
    details:
      "Runs each scenario × repetition on A, then on B (services fresh for each attempt when the config in the working folder declares targets.eval.services; otherwise the plan's api_url), and writes into --out: a/ and b/ (each candidate's results.json, reports and per-attempt grading.json), comparison.json, and report.html and summary.md side by side, differences first: pass rates, pass@k and pass^k, the difference with Fisher's exact test, time and calls per attempt, and the checks that cannot tell the two apart. --skills-uplift makes B from A with its Skills removed. --judge-command adds blind judging: per scenario a judge agent sees both attempts labelled A and B in a random order (seeded by --seed) and scores them; the labels are unmapped in comparison.json. Exit 0 once compared.",
    examples: [
      ["What do the Skills add?", "inter eval compare evals/eval-plan.json --a dist/cli.tgz --skills-uplift --agent claude-code --repetitions 5"],
      ["A new candidate against the last release", "inter eval compare evals/eval-plan.json --a release/cli.tgz --b dist/cli.tgz --agent codex"],
    ],
  });
  plan = Option.String({ name: "plan" });
  a = Option.String("--a", { required: true, description: "Candidate A: a cli.tgz, or a folder holding one" });
  b = Option.String("--b", { description: "Candidate B: a cli.tgz, or a folder holding one" });
  skillsUplift = Option.Boolean("--skills-uplift", false, { description: "B is A with its Skills removed, everything else the same" });
  agent = Option.String("--agent", { description: "reference (default), claude-code, codex or opencode", validator: t.isEnum(["reference", "claude-code", "codex", "opencode"]) });
  agentCommand = Option.String("--agent-command", { description: "An argv template as JSON; {prompt}, {prompt_file}, {workspace}, {outputs} are filled in" });
  judgeCommand = Option.String("--judge-command", { description: "Blind judging: a judge agent's argv template as JSON ({prompt}, {prompt_file}); it answers with a JSON verdict line" });
  seed = Option.String("--seed", { description: "Seed of the blind labels' order (default: random; recorded in comparison.json)", validator: t.cascade(t.isNumber(), [t.isInteger(), t.isInInclusiveRange(0, 2 ** 31)]) });
  repetitions = Option.String("--repetitions", { description: "Attempts per scenario and candidate (default: the plan's settings)", validator: t.cascade(t.isNumber(), [t.isInteger(), t.isInInclusiveRange(1, 100)]) });
  timeout = Option.String("--timeout", { description: "Seconds per attempt", validator: t.cascade(t.isNumber(), [t.isPositive()]) });
  out = Option.String("--out", { description: "Folder for everything the comparison writes (default: compare/ in the project's output folder, e.g. dist/compare, or .intermesh/compare without a config); emptied first" });

  async run(): Promise<CommandResult> {
    const cwd = resolve(this.cwd ?? process.cwd());
    if (Boolean(this.b) === this.skillsUplift) throw new InterError("USAGE_ERROR", this.b ? "--b and --skills-uplift both name candidate B." : "Candidate B is missing.", "Give --b <cli.tgz>, or --skills-uplift to compare A with itself minus its Skills.");
    const agentArgv = argvOption("--agent-command", this.agentCommand);
    const judge = argvOption("--judge-command", this.judgeCommand);
    const planFile = resolve(cwd, this.plan);
    const { findConfig, loadConfig } = await import("../../config/load.js");
    const configFile = this.configFile ? resolve(cwd, this.configFile) : findConfig(cwd);
    const loaded = configFile ? await loadConfig({ cwd, config: configFile, version: INTER_BUILD }) : undefined;
    // Working files go to the build's output folder (or inter's own), never beside the plan in the source tree.
    const { outDir: buildOutDir } = await import("../../tasks/design.js");
    const outDir = resolve(cwd, this.out ?? (loaded ? join(loaded.root, buildOutDir(loaded.config), "compare") : join(cwd, ".intermesh", "compare")));
    const [{ runComparison }, { attemptLine }] = await Promise.all([import("../../evaluation/compare/run-comparison.js"), import("../../evaluation/run/execute.js")]);
    return interruptible(async (signal) => {
      const { comparison, file } = await runComparison({
        planFile,
        a: candidateFile(cwd, this.a),
        b: this.b ? candidateFile(cwd, this.b) : undefined,
        skillsUplift: this.skillsUplift,
        agent: agentArgv ? { command: agentArgv } : (this.agent as AgentConfig | undefined),
        referenceFile: planFile.replace(/\.json$/, ".reference.json"),
        judge,
        seed: (this.seed as unknown as number | undefined) ?? Math.floor(Math.random() * 2 ** 31),
        outDir,
        services: loaded?.config.targets?.eval?.services ?? {},
        servicesCwd: loaded?.root ?? cwd,
        settings: { repetitions: this.repetitions as unknown as number | undefined, timeoutSeconds: this.timeout as unknown as number | undefined },
        root: cwd,
        interVersion: INTER_BUILD,
        signal,
        onAttempt: (side, attempt) => this.json || process.stderr.write(`${side.toUpperCase()} ${attemptLine(attempt, false).split("\n")[0]}\n`),
      });
      const { renderComparisonMarkdown } = await import("../../evaluation/report/comparison.js");
      return { data: { ...comparison, file }, human: `${renderComparisonMarkdown(comparison)}\nWrote ${file} and ${join(outDir, "report.html")}` };
    });
  }
}
