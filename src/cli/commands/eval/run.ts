import { Command, Option } from "clipanion";
import * as t from "typanion";
import { oneOf } from "../../../core/plural.js";
import { AGENT_CHOICES } from "../../../evaluation/sandbox/presets.js";
import type { AgentConfig } from "../../../config/types.js";
import { join, resolve } from "node:path";
import { besideCandidate } from "../../../config/project-paths.js";
import { requireCandidate } from "../../candidate-lookup.js";
import type { CommandResult } from "../../base.js";
import { INTER_BUILD } from "../../../core/version.js";
import { parseShard, interruptible, argvOption, GatedCommand } from "./shared.js";

export class EvalRunCommand extends GatedCommand {
  static paths = [["eval", "run"]];
  static usage = Command.Usage({
    description: "Let an agent perform the plan's scenarios with the candidate, and check what it did",
    details:
      "FOLDER holds eval-plan.json (and eval-plan.reference.json for the reference agent) and cli.tgz — without one there, the candidate is the build output of the project around FOLDER, with the receipt.json beside it. No config is needed. Each scenario × repetition runs as a sealed attempt: the agent in a bubblewrap sandbox that shows only its own folders, the candidate behind a broker that runs it with the credential (which the agent never holds) and records every call (docs/evaluation.md#sealed-attempts); without bubblewrap the run says it is unsealed; finished attempts are journaled, so an interrupted run resumes (--fresh starts over). Results go to FOLDER/.inter-eval/results.json with report.html, junit.xml and summary.md beside it (summary.md is also appended to $GITHUB_STEP_SUMMARY when set). Exit 0 when the gate is met (by default: every attempt passed), 1 when not (EVAL_FAILED, naming the scenarios that missed it; EVAL_NOT_JUDGED when every attempt was a harness error, so nothing was judged — every report then leads with Not judged), 2 for invalid input.",
    examples: [
      ["Golden run with reference solutions", "inter eval run ./evaluation"],
      [
        "With your own agent",
        'inter eval run ./evaluation --agent-command \'["my-agent", "--prompt-file", "{prompt_file}"]\'',
      ],
      [
        "With Claude Code, passing when each scenario succeeds 2 times in 3",
        "inter eval run ./evaluation --agent claude-code --repetitions 3 --min-pass-rate 0.66",
      ],
      ["The second of four CI runners", "inter eval run ./evaluation --shard 2/4"],
      [
        "Through the candidate's MCP server instead of the shell",
        "inter eval run ./evaluation --agent claude-code --interface mcp",
      ],
    ],
  });
  folder = Option.String({ name: "folder" });
  agent = Option.String("--agent", {
    description: `${oneOf(AGENT_CHOICES)}; reference by default`,
    validator: t.isEnum(AGENT_CHOICES),
  });
  agentCommand = Option.String("--agent-command", {
    description: "An argv template as JSON; {prompt}, {prompt_file}, {workspace}, {outputs} are filled in",
  });
  via = Option.String("--interface", {
    description:
      "cli (default): the agent uses the candidate in its shell; mcp: through the candidate's MCP server, each tool call recorded as its command",
    validator: t.isEnum(["cli", "mcp"]),
  });
  repetitions = Option.String("--repetitions", {
    description: "Attempts per scenario (default: the plan's settings)",
    validator: t.cascade(t.isNumber(), [t.isInteger(), t.isInInclusiveRange(1, 100)]),
  });
  evalConcurrency = Option.String("--attempts-concurrency", {
    description: "Attempts at once (default: the plan's settings)",
    validator: t.cascade(t.isNumber(), [t.isInteger(), t.isInInclusiveRange(1, 32)]),
  });
  timeout = Option.String("--timeout", {
    description: "Seconds per attempt; the agent's whole process group is killed after it",
    validator: t.cascade(t.isNumber(), [t.isPositive()]),
  });
  fresh = Option.Boolean("--fresh", false, { description: "Discard journaled attempts, even of an interrupted run" });
  reuse = Option.Boolean("--reuse", false, {
    description: "Reuse the attempts of the last completed run of this candidate, plan and agent",
  });
  shard = Option.String("--shard", {
    description:
      "Run shard I of N (e.g. 2/4): a deterministic, balanced share of the attempts; join the shards with inter eval merge",
  });

  async run(): Promise<CommandResult> {
    const folder = resolve(this.cwd ?? process.cwd(), this.folder);
    const argv = argvOption("--agent-command", this.agentCommand);
    const agent: AgentConfig | undefined = argv ? { command: argv } : (this.agent as AgentConfig | undefined);
    const { executeEvaluation, attemptLine, summaryTable, gateFailure } =
      await import("../../../evaluation/run/evaluate-plan.js");
    // FOLDER/cli.tgz, else the build output of the project around it; its receipt sits beside it.
    // The flags are checked before anything is looked for: a bad --shard is a usage error wherever it is run.
    const shard = this.shard ? parseShard(this.shard) : undefined;
    const tgz = await requireCandidate(folder, undefined, this.cwd ?? process.cwd());
    return interruptible(async (signal) => {
      const { results, file, reports } = await executeEvaluation({
        planFile: join(folder, "eval-plan.json"),
        tgz,
        referenceFile: join(folder, "eval-plan.reference.json"),
        receiptFile: besideCandidate(tgz).receipt,
        agent,
        ...(this.via ? { interface: this.via as "cli" | "mcp" } : {}),
        runDir: join(folder, ".inter-eval"),
        services: {},
        servicesCwd: folder,
        settings: {
          repetitions: this.repetitions as unknown as number | undefined,
          concurrency: this.evalConcurrency as unknown as number | undefined,
          timeoutSeconds: this.timeout as unknown as number | undefined,
        },
        fresh: this.fresh,
        reuse: this.reuse,
        gate: this.gate(),
        ...(shard ? { shard } : {}),
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
