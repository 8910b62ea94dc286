import { Command, Option } from "clipanion";
import * as t from "typanion";
import { oneOf } from "../../../core/plural.js";
import { AGENT_CHOICES } from "../../../evaluation/sandbox/presets.js";
import type { AgentConfig } from "../../../config/types.js";
import { join, resolve } from "node:path";
import { InterError } from "../../../core/errors.js";
import { BaseCommand, type CommandResult } from "../../base.js";
import { INTER_BUILD } from "../../../core/version.js";
import { interruptible, argvOption } from "./shared.js";
import { requireCandidate } from "../../candidate-lookup.js";

export class EvalCompareCommand extends BaseCommand {
  static paths = [["eval", "compare"]];
  static usage = Command.Usage({
    description:
      "Run one plan with one agent on two candidates, in turn, and compare them; --skills-uplift measures what the Skills add",
    details:
      "Runs each scenario × repetition on A, then on B (services fresh for each attempt when the config in the working folder declares targets.eval.services; otherwise the plan's api_url), and writes into --out: a/ and b/ (each candidate's results.json, reports and per-attempt grading.json), comparison.json, and report.html and summary.md side by side, differences first: pass rates, pass@k and pass^k, the difference with Fisher's exact test, time and calls per attempt, and the checks that cannot tell the two apart. --skills-uplift makes B from A with its Skills removed. --judge-command adds blind judging: per scenario a judge agent sees both attempts labelled A and B in a random order (seeded by --seed) and scores them; the labels are unmapped in comparison.json. Exit 0 once compared.",
    examples: [
      [
        "What do the Skills add?",
        "inter eval compare evals/eval-plan.json --a dist/cli.tgz --skills-uplift --agent claude-code --repetitions 5",
      ],
      [
        "A new candidate against the last release",
        "inter eval compare evals/eval-plan.json --a release/cli.tgz --b dist/cli.tgz --agent codex",
      ],
      [
        "The CLI against its MCP server",
        "inter eval compare evals/eval-plan.json --a dist/cli.tgz --mcp --agent claude-code",
      ],
    ],
  });
  plan = Option.String({ name: "plan" });
  a = Option.String("--a", { required: true, description: "Candidate A: a cli.tgz, or a folder holding one" });
  b = Option.String("--b", { description: "Candidate B: a cli.tgz, or a folder holding one" });
  skillsUplift = Option.Boolean("--skills-uplift", false, {
    description: "B is A with its Skills removed, everything else the same",
  });
  mcp = Option.Boolean("--mcp", false, {
    description: "B is A used through its MCP server instead of the shell: CLI against MCP",
  });
  acrossModels = Option.Boolean("--across-models", false, {
    description:
      "Compare even when the agent reports that A and B were answered by different models (refused otherwise: EVAL_MODELS_DIFFER)",
  });
  agent = Option.String("--agent", {
    description: `${oneOf(AGENT_CHOICES)}; reference by default`,
    validator: t.isEnum(AGENT_CHOICES),
  });
  agentCommand = Option.String("--agent-command", {
    description: "An argv template as JSON; {prompt}, {prompt_file}, {workspace}, {outputs} are filled in",
  });
  judgeCommand = Option.String("--judge-command", {
    description:
      "Blind judging: a judge agent's argv template as JSON ({prompt}, {prompt_file}); it answers with a JSON verdict line",
  });
  seed = Option.String("--seed", {
    description: "Seed of the blind labels' order (default: random; recorded in comparison.json)",
    validator: t.cascade(t.isNumber(), [t.isInteger(), t.isInInclusiveRange(0, 2 ** 31)]),
  });
  repetitions = Option.String("--repetitions", {
    description: "Attempts per scenario and candidate (default: the plan's settings)",
    validator: t.cascade(t.isNumber(), [t.isInteger(), t.isInInclusiveRange(1, 100)]),
  });
  timeout = Option.String("--timeout", {
    description: "Seconds per attempt",
    validator: t.cascade(t.isNumber(), [t.isPositive()]),
  });
  out = Option.String("--out", {
    description:
      "Folder for everything the comparison writes (default: compare/ in the project's output folder, e.g. dist/compare, or .intermesh/compare without a config); emptied first",
  });

  async run(): Promise<CommandResult> {
    const cwd = resolve(this.cwd ?? process.cwd());
    if ([Boolean(this.b), this.skillsUplift, this.mcp].filter(Boolean).length !== 1)
      throw new InterError(
        "USAGE_ERROR",
        this.b || this.skillsUplift || this.mcp
          ? "--b, --skills-uplift and --mcp each name candidate B; give one."
          : "Candidate B is missing.",
        "Give --b <cli.tgz>, --skills-uplift to compare A with itself minus its Skills, or --mcp to compare A in the shell with A through MCP.",
      );
    const agentArgv = argvOption("--agent-command", this.agentCommand);
    const judge = argvOption("--judge-command", this.judgeCommand);
    const planFile = resolve(cwd, this.plan);
    const [{ findConfig }, { loadProjectConfig }] = await Promise.all([
      import("../../../config/load.js"),
      import("../../load-config.js"),
    ]);
    const configFile = this.configFile ? resolve(cwd, this.configFile) : findConfig(cwd);
    const loaded = configFile ? await loadProjectConfig(cwd, configFile) : undefined;
    // Working files go to the build's output folder (or inter's own), never beside the plan in the source tree.
    const { projectPaths, STATE_DIR } = await import("../../../config/project-paths.js");
    const outDir = resolve(
      cwd,
      this.out ??
        (loaded ? join(loaded.root, projectPaths(loaded.config).outDir, "compare") : join(cwd, STATE_DIR, "compare")),
    );
    const [{ runComparison }, { attemptLine }] = await Promise.all([
      import("../../../evaluation/compare/run-comparison.js"),
      import("../../../evaluation/run/evaluate-plan.js"),
    ]);
    return interruptible(async (signal) => {
      const { comparison, file } = await runComparison({
        planFile,
        a: await requireCandidate(undefined, this.a, cwd),
        b: this.b ? await requireCandidate(undefined, this.b, cwd) : undefined,
        skillsUplift: this.skillsUplift,
        mcp: this.mcp,
        acrossModels: this.acrossModels,
        agent: agentArgv ? { command: agentArgv } : (this.agent as AgentConfig | undefined),
        referenceFile: planFile.replace(/\.json$/, ".reference.json"),
        judge,
        seed: (this.seed as unknown as number | undefined) ?? Math.floor(Math.random() * 2 ** 31),
        outDir,
        services: loaded?.config.targets?.eval?.services ?? {},
        servicesCwd: loaded?.root ?? cwd,
        settings: {
          repetitions: this.repetitions as unknown as number | undefined,
          timeoutSeconds: this.timeout as unknown as number | undefined,
        },
        root: cwd,
        interVersion: INTER_BUILD,
        signal,
        onAttempt: (side, attempt) =>
          this.json || process.stderr.write(`${side.toUpperCase()} ${attemptLine(attempt, false).split("\n")[0]}\n`),
      });
      const { renderComparisonMarkdown } = await import("../../../evaluation/report/comparison.js");
      return {
        data: { ...comparison, file },
        human: `${renderComparisonMarkdown(comparison)}\nWrote ${file} and ${join(outDir, "report.html")}`,
      };
    });
  }
}
